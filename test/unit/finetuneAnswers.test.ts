// The rules of the finetune wizard's answers, shared by the wizard and the programmatic command argument.
import { strict as assert } from 'node:assert';
import {
  answersProblems,
  modeProblem,
  modelNameProblem,
  parseNumQs,
  suggestModelName,
  type FinetuneAnswers,
} from '../../src/features/finetune/finetuneAnswers';

const GOOD: FinetuneAnswers = { baseModel: 'base-7b', modelName: 'handbook-v1', numQs: 50, mode: 'pretraining', useCase: '' };

describe('finetune answers', () => {
  it('accepts names of 1 to 64 letters, digits, ".", "_" and "-"', () => {
    for (const ok of ['a', 'Model_1.2-x', 'x'.repeat(64)]) assert.equal(modelNameProblem(ok), undefined, ok);
  });

  it('refuses empty, overlong and badly spelled names, saying which characters are wrong', () => {
    assert.match(modelNameProblem('') ?? '', /Enter a name/);
    assert.match(modelNameProblem('x'.repeat(65)) ?? '', /65 characters long; at most 64/);
    assert.equal(modelNameProblem('my model/v1'), 'Use only letters, digits, ".", "_" and "-" (not space, "/").');
  });

  it('refuses a name already taken, also when it differs only in case', () => {
    assert.equal(modelNameProblem('handbook', ['base-7b', 'handbook']), 'A model named handbook already exists.');
    assert.match(modelNameProblem('HandBook', ['handbook']) ?? '', /handbook already exists \(differs only in case\)/);
    assert.equal(modelNameProblem('handbook-2', ['handbook']), undefined);
  });

  it('parses numQs as a whole number from 1 to 10000', () => {
    assert.deepEqual(parseNumQs(' 50 '), { value: 50 });
    assert.deepEqual(parseNumQs('1'), { value: 1 });
    assert.deepEqual(parseNumQs('10000'), { value: 10000 });
    for (const bad of ['0', '10001', '-3', '2.5', '12a', '', '1e3']) assert.ok('problem' in parseNumQs(bad), bad);
  });

  it('refuses an empty or control-character mode', () => {
    assert.equal(modeProblem('pretraining'), undefined);
    assert.ok(modeProblem('  '));
    assert.ok(modeProblem('a\nb'));
  });

  it('suggests a name from the first file and the date that fits the rules and is free', () => {
    const day = new Date(2025, 5, 1);
    assert.equal(suggestModelName('docs/Résumé 2024 (final).pdf', [], day), 'Resume-2024-final-2025-06-01');
    assert.equal(suggestModelName('a.pdf', ['a-2025-06-01', 'A-2025-06-01-2'], day), 'a-2025-06-01-3');
    assert.equal(suggestModelName(undefined, [], day), 'model-2025-06-01');
    const long = suggestModelName(`${'x'.repeat(200)}.docx`, [], day);
    assert.equal(modelNameProblem(long), undefined);
  });

  it('lists every problem of a programmatic answer set, and narrows unknown values by shape', () => {
    assert.deepEqual(answersProblems(GOOD), []);
    const problems = answersProblems({ baseModel: '', modelName: 'bad name', numQs: 0, mode: '', useCase: '' }, []);
    assert.deepEqual(
      problems.map((p) => p.split(':')[0]),
      ['baseModel', 'modelName', 'numQs', 'mode'],
    );
  });
});
