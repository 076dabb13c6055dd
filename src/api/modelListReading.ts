// The model list (§4.1) as the client reads it: by the profile it knows for the service, and when it knows none, or
// the answer no longer fits it, by the profile inferred from this answer, which the caller keeps (and logs: `change`
// says what changed). A profile is never inferred from an empty list: it would say nothing of where names are.
// An answer that plainly holds names (the inference found some) but that its own profile reads as none is unreadable
// (a ContractError, so that the person is offered Choose How to Read…), never an empty list: a silent [] looks like a
// key with no models.

import { contract } from './answerShape';
import { answerReader } from './errors';
import { inferModelList } from './modelListInference';
import { readModelsByProfile } from './modelListReader';
import { describeModelListProfile } from './profileWords';
import { sameReading, type ModelListProfile } from './serviceProfile';
import type { ModelInfo } from './types';

export interface ModelListReading {
  models: ModelInfo[];
  /** The profile that read them (the one known, or the one inferred now). */
  profile?: ModelListProfile;
  /** Set when the profile was inferred now and differs from the one known: what changed, in words, for the log. */
  change?: string;
}

/** Reads a model list by `known`, inferring again when it does not fit. Throws a ContractError when nothing fits. */
export const readModelList = answerReader(function readModelList(body: unknown, known?: ModelListProfile): ModelListReading {
  if (known) {
    const models = readModelsByProfile(body, known);
    if (models) return { models, profile: known };
  }
  const { profile: inferred, names, where } = inferModelList(body);
  const models = readModelsByProfile(body, inferred, true);
  if (names > 0 && (models === undefined || models.length === 0)) {
    throw contract(`model list: names found in ${where}, but none could be read by how they were found`, body);
  }
  if (models === undefined || models.length === 0) return { models: [] };
  if (known && sameReading(known, inferred)) return { models, profile: known };
  const now = describeModelListProfile(inferred);
  const change = known
    ? `The model list no longer fits how it was read (${describeModelListProfile(known)}); now: ${now}`
    : `Model list: ${now}`;
  return { models, profile: inferred, change };
});

/** A model list read with no profile known (tests, and callers that keep none). */
export const decodeModelList = answerReader(function decodeModelList(body: unknown): ModelInfo[] {
  return readModelList(body).models;
});
