// The model list (§4.1) as a kind of answer, MODEL_LIST (readAnswer in answerReading.ts reads it): by the profile
// known for the service, else by the profile inferred from this answer. A profile is never inferred from an empty
// list: it would say nothing of where names are. An answer that plainly holds names (the inference found some) but
// that its own profile reads as none is unreadable (a ContractError, so that the person is offered Choose How to
// Read…), never an empty list: a silent [] looks like a key with no models.

import { contract } from './answerShape';
import type { AnswerKind } from './answerReading';
import { inferModelList } from './modelListInference';
import { readModelsByProfile } from './modelListReader';
import { describeModelListProfile } from './profileWords';
import type { ModelListProfile } from './profileFormat';
import type { ModelInfo } from './types';

export const MODEL_LIST: AnswerKind<ModelListProfile, ModelInfo[], undefined> = {
  part: 'modelList',
  read: (body, profile) => readModelsByProfile(body, profile),
  infer(body) {
    const { profile, names, where } = inferModelList(body);
    // Items without a name are skipped however many there are: the profile was inferred from this very answer.
    const models = readModelsByProfile(body, profile, true);
    if (names > 0 && (models === undefined || models.length === 0)) {
      throw contract(`model list: names found in ${where}, but none could be read by how they were found`, body);
    }
    return { profile, value: models ?? [] };
  },
  describe: describeModelListProfile,
  worthKeeping: (models) => models.length > 0,
};
