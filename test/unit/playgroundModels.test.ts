// The playground's model list puts the local models after the service's, by id with the name to show; the page
// names them "Local · <name>", never by id, and a local model's runs carry no retrieval and need no budgets.
import { strict as assert } from 'node:assert';
import { LOCAL_LABEL_CHARS, playgroundModelEntries } from '../../src/features/playground/host/playgroundModels';
import { modelLabel, setModelLabels } from '../../src/features/playground/page/modelLabels';
import { knobProblems, toRunSettings, type Knobs } from '../../src/features/playground/page/formValidation';
import { isWebviewMessage } from '../../src/features/playground/protocol';

const LOCAL = 'local:0123456789abcdef';
const hosted = [
  { name: 'oss-reasoner-8b', kind: 'base' as const },
  { name: 'ft:mine', kind: 'custom' as const },
];

describe('playground model list', () => {
  it('lists the service models, then the local ones by id with their name', () => {
    const list = playgroundModelEntries(hosted, [{ id: LOCAL, label: 'ft:mine' }]);
    assert.deepEqual(list, [...hosted, { name: LOCAL, kind: 'local', label: 'ft:mine' }]);
  });

  it('keeps the local models when the service list is empty (no key, service down)', () => {
    assert.deepEqual(playgroundModelEntries([], [{ id: LOCAL, label: 'tiny.gguf' }]), [{ name: LOCAL, kind: 'local', label: 'tiny.gguf' }]);
  });

  it('leaves out a service model named like a local id (a run on it could not tell which is meant)', () => {
    const list = playgroundModelEntries([...hosted, { name: 'local:fedcba9876543210', kind: 'custom' }], []);
    assert.deepEqual(list, hosted);
  });

  it('shortens a long file name', () => {
    const [entry] = playgroundModelEntries([], [{ id: LOCAL, label: 'x'.repeat(500) }]);
    assert.equal(entry!.label!.length, LOCAL_LABEL_CHARS);
  });

  it('the page names local models "Local · <name>", and a local id it has no name for yet "Local model"', () => {
    setModelLabels(playgroundModelEntries(hosted, [{ id: LOCAL, label: 'ft:mine' }]));
    assert.equal(modelLabel(LOCAL), 'Local · ft:mine');
    assert.equal(modelLabel('ft:mine'), 'ft:mine', 'the service model of the same name keeps its name');
    assert.equal(modelLabel('local:fedcba9876543210'), 'Local model');
    setModelLabels([]);
    assert.equal(modelLabel(LOCAL), 'Local model');
  });

  it('a local run needs no valid budgets and sends no retrieval; a service run still does', () => {
    const knobs: Knobs = { modelName: LOCAL, temperature: '0.5', useRag: true, sequentialBudget: '', parallelBudget: 'x', stream: true };
    const prompt = { context: '', prompt: 'Hi', queryOnly: '', customQuery: false };
    assert.deepEqual(knobProblems(knobs), {});
    const s = toRunSettings(knobs, prompt);
    assert.ok(s);
    assert.equal(s.useRag, false);
    assert.ok(isWebviewMessage({ type: 'run', runId: 'r1', settings: s }), 'what the page sends passes the host guard');
    const service = { ...knobs, modelName: 'oss-reasoner-8b' };
    assert.deepEqual(Object.keys(knobProblems(service)).sort(), ['parallelBudget', 'sequentialBudget']);
    assert.equal(toRunSettings(service, prompt), undefined);
  });
});
