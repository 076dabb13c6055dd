// The language-model tools: package.json contributes exactly the tools the entry registers (LM_TOOLS), each with what
// VS Code needs to accept it and a person needs to reference it (`#name`), and the one that reads workspace files is
// hidden in Restricted Mode. The entry registers every value of LM_TOOLS and the main module builds one tool per name
// (src/features/tools/tools.ts, checked by its type, ToolTable); the in-editor suite finds them in vscode.lm.tools.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LM_TOOLS } from '../../src/contributions';
import { MODEL_OPTION_NAMES } from '../../src/features/chat/chatRequest';
import { TOOL_DEFINITIONS } from '../../src/features/tools/toolDefinitions';
import { localizedManifest } from './localizedManifest';

interface ToolContribution {
  name: string;
  displayName?: string;
  userDescription?: string;
  modelDescription?: string;
  toolReferenceName?: string;
  canBeReferencedInPrompt?: boolean;
  icon?: string;
  tags?: string[];
  when?: string;
  inputSchema?: { type?: string; properties?: Record<string, unknown>; required?: string[] };
}

const manifest = localizedManifest<{ contributes: { languageModelTools?: ToolContribution[] } }>();
const contributed = manifest.contributes.languageModelTools ?? [];
const registered = Object.values(LM_TOOLS);

describe('the language-model tools', () => {
  it('package.json contributes exactly the tools the entry registers', () => {
    assert.deepEqual(contributed.map((t) => t.name).sort(), [...registered].sort());
  });

  it('gives each what VS Code requires and a person can reference', () => {
    const refs = new Set<string>();
    for (const t of contributed) {
      assert.match(t.name, /^[\w-]+$/, t.name);
      assert.ok(!/^(copilot_|vscode_)/.test(t.name), t.name);
      assert.ok(t.displayName && !t.displayName.startsWith('%'), `${t.name}: displayName`);
      assert.ok(t.userDescription && !t.userDescription.startsWith('%'), `${t.name}: userDescription`);
      // Written for a model: what it does, when to use it, what it returns.
      assert.ok(t.modelDescription && t.modelDescription.length > 150, `${t.name}: modelDescription`);
      assert.match(t.modelDescription, /Use it/, `${t.name}: says when to use it`);
      assert.match(t.modelDescription, /Returns/, `${t.name}: says what it returns`);
      assert.equal(t.canBeReferencedInPrompt, true, `${t.name}: canBeReferencedInPrompt`);
      assert.ok(t.toolReferenceName && /^[\w-]+$/.test(t.toolReferenceName), `${t.name}: toolReferenceName`);
      assert.ok(!refs.has(t.toolReferenceName), `${t.name}: toolReferenceName taken twice`);
      refs.add(t.toolReferenceName);
      assert.match(t.icon ?? '', /^\$\([\w-]+\)$/, `${t.name}: icon`);
      assert.ok(t.tags?.includes('hostedReasoning'), `${t.name}: tags`);
      assert.equal(t.inputSchema?.type, 'object', `${t.name}: inputSchema`);
      for (const r of t.inputSchema?.required ?? []) assert.ok(t.inputSchema?.properties?.[r], `${t.name}: required ${r} is a property`);
    }
  });

  it('hides the tools that read workspace files in an untrusted workspace, and only those', () => {
    const hidden = contributed.filter((t) => t.when !== undefined);
    assert.deepEqual(
      hidden.map((t) => [t.name, t.when]),
      [
        [LM_TOOLS.startFinetune, 'isWorkspaceTrusted'],
        [LM_TOOLS.compareModels, 'isWorkspaceTrusted'],
      ],
    );
  });

  it('reads from its input exactly the fields its inputSchema names (the schema and the code in step)', () => {
    const tools = fs.readFileSync(path.resolve(__dirname, '../../../src/features/tools/tools.ts'), 'utf8');
    for (const t of contributed) {
      const key = Object.entries(LM_TOOLS).find(([, name]) => name === t.name)?.[0];
      const builder = new RegExp(`\\[LM_TOOLS\\.${key}\\]: (\\w+)\\(`).exec(tools)?.[1];
      const file = builder && new RegExp(`import \\{ ${builder} \\} from '\\./(\\w+)'`).exec(tools)?.[1];
      assert.ok(file, `${t.name}: its file in tools.ts`);
      const code = fs.readFileSync(path.resolve(__dirname, `../../../src/features/tools/${file}.ts`), 'utf8');
      // A field is read by a checker, `requiredString(f, 'name')`, taken as it is, `const files = f.files`, or among a
      // model's options (knobsFor).
      const read = new Set([
        ...[...code.matchAll(/(?:required|optional)\w*\((?:f|fields\(options\.input\)), '(\w+)'/g)].map((m) => m[1]!),
        ...[...code.matchAll(/= f\.(\w+)/g)].map((m) => m[1]!),
        ...(code.includes('knobsFor(f,') ? MODEL_OPTION_NAMES : []),
      ]);
      assert.deepEqual([...read].sort(), Object.keys(t.inputSchema?.properties ?? {}).sort(), `${t.name} (${file}.ts)`);
    }
  });

  it('contributes what TOOL_DEFINITIONS says (the MCP server serves the same descriptions and schemas)', () => {
    assert.deepEqual(Object.keys(TOOL_DEFINITIONS).sort(), [...registered].sort());
    for (const t of contributed) {
      const d = TOOL_DEFINITIONS[t.name as keyof typeof TOOL_DEFINITIONS];
      assert.deepEqual({ description: t.modelDescription, inputSchema: t.inputSchema }, d, t.name);
    }
  });

  it('builds one tool per name in the main module (its file names each)', () => {
    const text = fs.readFileSync(path.resolve(__dirname, '../../../src/features/tools/tools.ts'), 'utf8');
    for (const key of Object.keys(LM_TOOLS)) assert.match(text, new RegExp(`\\[LM_TOOLS\\.${key}\\]:`), key);
  });
});
