// The Get Started walkthrough ticks a step off when the user has done what it teaches (a context key the extension
// sets), not when its button was clicked or its view opened; every step shows an image with a text alternative.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WALKTHROUGH_CONTEXT, WALKTHROUGH_ID, WALKTHROUGH_STEP_OF } from '../../src/walkthroughContext';
import { localizedManifest } from './localizedManifest';

const root = path.resolve(__dirname, '../../..');

interface Step {
  id: string;
  description: string;
  media: { image?: unknown; altText?: string; markdown?: string; svg?: string };
  completionEvents?: string[];
}
interface Manifest {
  contributes: { walkthroughs: { steps: Step[] }[] };
}
const manifest = localizedManifest<Manifest>();
const steps = manifest.contributes.walkthroughs.flatMap((w) => w.steps);

/** The session's key context (src/connection/session.ts), true for a stored key and for one from the environment. */
const HAS_API_KEY = WALKTHROUGH_CONTEXT.hasApiKey;

describe('the Get Started walkthrough', () => {
  it('completes each step on the state it teaches', () => {
    assert.deepEqual(Object.fromEntries(steps.map((s) => [s.id, s.completionEvents])), {
      setApiKey: [`onContext:${HAS_API_KEY}`],
      seeModels: [`onContext:${WALKTHROUGH_CONTEXT.modelsListed}`],
      runFirstInference: [`onContext:${WALKTHROUGH_CONTEXT.inferenceFinished}`],
      createFirstFinetunedModel: [`onContext:${WALKTHROUGH_CONTEXT.finetuneStarted}`],
    });
  });

  it('names each step by the id VS Code gives it, for the steps recorded as done directly', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { publisher: string; name: string };
    const walkthroughs = manifest.contributes.walkthroughs as unknown as { id: string; steps: Step[] }[];
    assert.deepEqual(
      Object.entries(WALKTHROUGH_STEP_OF).map(([key, step]) => `${WALKTHROUGH_ID}#${step} ${key}`),
      walkthroughs.flatMap((w) =>
        w.steps.map((s) => `${pkg.publisher}.${pkg.name}#${w.id}#${s.id} ${(s.completionEvents?.[0] ?? '').replace(/^onContext:/, '')}`),
      ),
    );
  });

  it('speaks to users of the real service: the demo hints are in the demo workspace, not here', () => {
    const texts = manifest.contributes.walkthroughs.flatMap((w) => [JSON.stringify(w)]);
    for (const text of texts) assert.doesNotMatch(text, /npm start|emulator|demo/i);
  });

  it('gives every step an image that ships, with a text alternative', () => {
    for (const step of steps) {
      assert.equal(typeof step.media.image, 'string', `${step.id}: no image`);
      const image = step.media.image as string;
      assert.match(image, /^media\/walkthrough\/[\w-]+\.(svg|png)$/, `${step.id}: the image is not in media/walkthrough/`);
      assert.ok(fs.existsSync(path.join(root, image)), `${step.id}: ${image} does not exist`);
      assert.ok((step.media.altText ?? '').trim().length > 0, `${step.id}: no altText`);
      // VS Code shows either an image or markdown for a step, never both.
      assert.deepEqual(Object.keys(step.media).sort(), ['altText', 'image'], `${step.id}: media besides image and altText`);
      assert.match(step.description, /\]\(command:/, `${step.id}: the description lost its button`);
    }
  });
});
