// The files agents read (contributes.chatSkills, chatPromptFiles, chatAgents, VS Code 1.139's formats: each entry a
// `path` inside the extension; a skill's SKILL.md whose `name` is its folder's name): they exist, ship in the .vsix, and
// name only tools the extension has, by the names VS Code gives extension tools (`<extension id>/<toolReferenceName>`).
// That VS Code registers them is tested in the editor (test/suite/agentContributions.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string;
  publisher: string;
  contributes: Record<string, unknown>;
};
const extensionId = `${manifest.publisher}.${manifest.name}`.toLowerCase();
const tools = manifest.contributes.languageModelTools as { name: string; toolReferenceName: string }[];
const entries = (point: string) => (manifest.contributes[point] as { path: string }[] | undefined) ?? [];

/** A file's YAML front matter as flat `key: value` lines (the form these files use), and its body. */
function frontMatter(file: string): { fields: Record<string, string>; body: string } {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  assert.ok(match, `${file} has no front matter`);
  const fields: Record<string, string> = {};
  for (const line of match[1]!.split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) fields[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return { fields, body: match[2]! };
}

function toolList(value: string | undefined): string[] {
  return value === undefined ? [] : (JSON.parse(value.replace(/'/g, '"')) as string[]);
}

describe('agent contributions: the Agent Skill, prompt files and custom agent', () => {
  const all = [...entries('chatSkills'), ...entries('chatPromptFiles'), ...entries('chatAgents')].map((e) => e.path);

  it('contributes one skill, two prompt files and one agent, each a file under agents/ that the .vsix carries', () => {
    assert.equal(entries('chatSkills').length, 1);
    assert.equal(entries('chatPromptFiles').length, 2);
    assert.equal(entries('chatAgents').length, 1);
    for (const file of all) {
      assert.match(file, /^\.\/agents\//);
      assert.ok(fs.statSync(path.join(root, file)).isFile(), `${file} is missing`);
    }
    assert.match(fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8'), /^!agents\/\*\*$/m);
    for (const e of entries('chatPromptFiles')) assert.match(e.path, /\.prompt\.md$/);
    for (const e of entries('chatAgents')) assert.match(e.path, /\.agent\.md$/);
  });

  it('the skill’s SKILL.md is named as its folder and says when to use it', () => {
    for (const { path: file } of entries('chatSkills')) {
      assert.equal(path.basename(file), 'SKILL.md');
      const { fields } = frontMatter(file);
      assert.equal(fields.name, path.basename(path.dirname(file)));
      assert.match(fields.name ?? '', /^[a-z0-9-]{1,64}$/);
      assert.ok(fields.description && fields.description.length <= 1024, 'a description of at most 1,024 characters');
      assert.match(fields.description ?? '', /Use when/);
    }
  });

  it('names only the extension’s own tools, and the agent has them all and nothing else', () => {
    const fullNames = new Set(tools.map((t) => `${extensionId}/${t.toolReferenceName}`));
    const references = new Set(tools.map((t) => `#${t.toolReferenceName}`));
    const names = new Set(tools.map((t) => t.name));
    for (const file of all) {
      const { fields, body } = frontMatter(file);
      assert.ok(fields.description, `${file} has no description`);
      for (const tool of toolList(fields.tools)) assert.ok(fullNames.has(tool), `${file}: ${tool} is not one of our tools`);
      for (const ref of body.match(/#hosted\w+/g) ?? []) assert.ok(references.has(ref), `${file}: ${ref} is not one of our tools`);
      for (const name of body.match(/\bhosted_\w+/g) ?? []) assert.ok(names.has(name), `${file}: ${name} is not one of our tools`);
    }
    const [agent] = entries('chatAgents');
    assert.deepEqual(toolList(frontMatter(agent!.path).fields.tools).sort(), [...fullNames].sort());
  });
});
