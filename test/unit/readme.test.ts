// README.md is what a person reads first: every command, setting and view the manifest contributes is in it, and
// everything it names as one exists (a renamed command or a removed setting fails here, not in a user's hands).
// Every image it links exists; the packaged copy (scripts/packageReadme.mjs) is the user half only, without blank
// holes where the screenshots were.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PROFILE_PARTS } from '../../src/api/profileFormat';
import { parseCommand } from '../../src/cli/args';
import { localizedManifest } from './localizedManifest';
import { ignoredInRestrictedMode, settingsNamedIn } from './settingLists';

const root = path.resolve(__dirname, '../../..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

interface Manifest {
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: {
    commands: { command: string; title: string }[];
    configuration: { properties: Record<string, { default?: unknown; markdownDescription?: string }> };
    viewsContainers: { activitybar: { title: string }[] };
    views: Record<string, { id: string; name: string }[]>;
  };
}
const manifest = localizedManifest<Manifest>();

/** The rows of the table under `## <heading>`: each row's cells, without the header and the rule. */
function tableUnder(heading: string): string[][] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `README has no "## ${heading}" section`);
  const section = readme.slice(start + 1).split(/\n## /)[0]!;
  const rows = section.split('\n').filter((l) => l.startsWith('|'));
  return rows.slice(2).map((row) =>
    row
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim()),
  );
}

/** The text of the section under `## <heading>`. */
function sectionText(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `README has no "## ${heading}" section`);
  return readme.slice(start + 1).split(/\n## /)[0]!;
}

/** How the Settings table writes a default. */
function shownDefault(value: unknown): string {
  if (value === '' || value === undefined) return '(empty)';
  return typeof value === 'string' ? `\`${value}\`` : JSON.stringify(value);
}

/** The packaged README, written by the script `npm run package` runs. */
function packagedReadme(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hr-readme-')), 'README.md');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'packageReadme.mjs'), file]);
  return fs.readFileSync(file, 'utf8');
}

describe('README', () => {
  it('lists every contributed command by its title in the Commands table, and nothing else there', () => {
    const listed = tableUnder('Commands').map(([cell]) => (cell ?? '').replace(/^\*(.+)\*(?: †)?$/, '$1'));
    assert.deepEqual([...listed].sort(), manifest.contributes.commands.map((c) => c.title).sort());
  });

  it('names no command that does not exist', () => {
    const titles = new Set(manifest.contributes.commands.map((c) => c.title));
    // "*Hosted Reasoning: Title*" anywhere: the palette's way of naming one of ours.
    const named = [...readme.matchAll(/\*Hosted Reasoning: ([^*]+)\*/g)].map((m) => m[1]!);
    assert.ok(named.length > 0);
    assert.deepEqual(
      named.filter((t) => !titles.has(t)),
      [],
    );
  });

  it('lists every setting with its default in the Settings table, and no setting that does not exist', () => {
    const rows = tableUnder('Settings').map(([name, value]) => [(name ?? '').replace(/`/g, ''), value]);
    const properties = manifest.contributes.configuration.properties;
    assert.deepEqual(
      rows,
      Object.entries(properties).map(([name, p]) => [name, shownDefault(p.default)]),
    );
    const mentioned = new Set([...readme.matchAll(/\bhostedReasoning\.[\w.]*\w/g)].map((m) => m[0]));
    assert.deepEqual(
      [...mentioned].filter((name) => !(name in properties)),
      [],
      'README names a setting the manifest does not contribute',
    );
    // A setting named by its short form (`maxFiles`, `idleSeconds`) exists too.
    const shortNames = new Set(Object.keys(properties).map((n) => n.split('.').pop()!));
    const shortMentioned = [...readme.matchAll(/`(\w+(?:Seconds|MB|Files|Size|Folder|Url|Qs))`/g)].map((m) => m[1]!);
    assert.deepEqual(
      shortMentioned.filter((n) => !shortNames.has(n)),
      [],
    );
  });

  it('gives a setting’s default wherever it states one in words: "`maxFiles` (100)"', () => {
    const properties = manifest.contributes.configuration.properties;
    // A short name (`maxFiles`) counts when one setting alone ends in it.
    const withShortName = (short: string) => Object.keys(properties).filter((name) => name.endsWith(`.${short}`));
    const stated = [...readme.matchAll(/`((?:hostedReasoning\.)?[\w.]+)` \((\d[\d,]*)/g)].flatMap(([, name, figure]) => {
      const full = name!.startsWith('hostedReasoning.') ? [name!] : withShortName(name!);
      return full.length === 1 && full[0]! in properties ? [[full[0]!, Number(figure!.replace(/,/g, ''))] as const] : [];
    });
    assert.ok(stated.length >= 5, `only ${stated.length} defaults stated in words: the pattern lost them`);
    assert.deepEqual(
      stated.filter(([name, figure]) => properties[name]!.default !== figure),
      [],
    );
  });

  it('says which settings a workspace sets in vain in Restricted Mode: restrictedConfigurations', () => {
    const list = ignoredInRestrictedMode(sectionText('Restricted Mode and virtual workspaces'));
    assert.ok(list, 'Restricted Mode has no "own values of … are ignored" sentence');
    assert.deepEqual(
      settingsNamedIn(list, Object.keys(manifest.contributes.configuration.properties)).sort(),
      [...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations].sort(),
    );
  });

  it('names every part of a service profile where the setting is described, as its description does', () => {
    const row = tableUnder('Settings').find(([name]) => name === '`hostedReasoning.serviceProfile`');
    assert.ok(row, 'no Settings row for hostedReasoning.serviceProfile');
    const description = manifest.contributes.configuration.properties['hostedReasoning.serviceProfile']?.markdownDescription ?? '';
    for (const part of PROFILE_PARTS) {
      // `part` alone, or a path into it (`modelList.lists`).
      const named = new RegExp(`\`${part}[\`.]`);
      assert.match(row[2] ?? '', named, `README's row of hostedReasoning.serviceProfile does not name \`${part}\``);
      assert.match(description, named, `the setting's description does not name \`${part}\``);
    }
  });

  it('names every view and its container as the activity bar shows them, and no other view', () => {
    for (const container of manifest.contributes.viewsContainers.activitybar) assert.ok(readme.includes(`**${container.title}** view`));
    const views = Object.values(manifest.contributes.views).flat();
    for (const view of views) assert.ok(readme.includes(`**${view.name}** view`), `README does not present the ${view.name} view`);
    const named = [...readme.matchAll(/\*\*([\w ]+)\*\* view/g)].map((m) => m[1]!);
    const known = new Set([...views.map((v) => v.name), ...manifest.contributes.viewsContainers.activitybar.map((c) => c.title)]);
    assert.deepEqual(
      named.filter((n) => !known.has(n)),
      [],
    );
  });

  it('asks in Requirements for the VS Code version of engines.vscode in package.json', () => {
    const engines = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { vscode: string } }).engines;
    const minimum = /^\^(\d+\.\d+)\.\d+$/.exec(engines.vscode)?.[1];
    assert.ok(minimum, `engines.vscode ${engines.vscode} is not a caret range`);
    assert.match(sectionText('Requirements'), new RegExp(`\\*\\*VS Code ${minimum.replace('.', '\\.')} or newer\\*\\*`));
  });

  it('links only images that exist', () => {
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    assert.ok(images.length > 0);
    assert.deepEqual(
      images.filter((image) => /^\w+:/.test(image) || !fs.existsSync(path.join(root, image))),
      [],
    );
  });

  it('gives MCP client configurations that parse and start `hosted-reasoning mcp` with options it takes, holding no key', () => {
    const section = sectionText('MCP server: the tools for agents outside VS Code');
    /** The command line's reading of the words after `hosted-reasoning`: throws on an option `mcp` does not take. */
    const started = (words: string[], where: string) => {
      assert.equal(words[0], 'mcp', `${where} starts ${words.join(' ')}, not the mcp command`);
      assert.doesNotThrow(() => parseCommand(words, root), `${where}: hosted-reasoning ${words.join(' ')}`);
    };
    const blocks = [...section.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
    assert.ok(blocks.length >= 2, `the section's JSON blocks were not found (${blocks.length})`);
    for (const [i, block] of blocks.entries()) {
      const where = `JSON block ${i + 1}`;
      let config: { mcpServers?: Record<string, { command?: unknown; args?: unknown; env?: Record<string, string> }> };
      try {
        config = JSON.parse(block) as typeof config;
      } catch (error) {
        assert.fail(`${where} is not JSON: ${(error as Error).message}\n${block}`);
      }
      const server = config.mcpServers?.['hosted-reasoning'];
      assert.ok(server, `${where} has no mcpServers["hosted-reasoning"]`);
      assert.equal(server.command, 'hosted-reasoning', where);
      assert.ok(Array.isArray(server.args) && server.args.every((a) => typeof a === 'string'), `${where}: args is a list of words`);
      started(server.args, where);
      for (const [name, value] of Object.entries(server.env ?? {})) {
        assert.ok(
          ['HOSTED_REASONING_BASE_URL', 'HOSTED_REASONING_API_KEY'].includes(name),
          `${where} sets ${name}, which the command line does not read`,
        );
        assert.match(value, new RegExp(`^\\$\\{(env:)?${name}\\}$`), `${where} writes a value for ${name} into the file`);
      }
    }
    // Every command line that adds it (`claude mcp add … -- hosted-reasoning mcp …`, in a block or in the text).
    const lines = [...section.replace(/\\\n\s*/g, ' ').matchAll(/mcp add [^\n`]*? -- hosted-reasoning ([^\n`#]*)/g)];
    assert.ok(lines.length >= 2, `the section's "mcp add" commands were not found (${lines.length})`);
    for (const [line, words] of lines) {
      started(words!.trim().split(/\s+/), line);
      // The options before `--` are the client's: an `-e`/`--env` there stores a value in the client's config file.
      assert.doesNotMatch(line, /\s(-e|--env)\s+HOSTED_REASONING_API_KEY=/, `${line} writes the key into the client's configuration`);
    }
  });

  it('installs a packed .tgz by a path npm reads as a file (./out/…; out/… is taken for a GitHub repository)', () => {
    const installs = [...readme.matchAll(/npm install -g\s+(\S+\.tgz)/g)].map((m) => m[1]!);
    assert.ok(installs.length > 0, 'README installs no packed package (the check would pass for nothing)');
    for (const file of installs) assert.match(file, /^(\.{1,2}\/|\/)/, `npm install -g ${file}`);
  });

  it('ships without its section for contributors, without developer commands and without blank holes', () => {
    const packaged = packagedReadme();
    assert.match(readme, /^## Contributing$/m, 'README lost its pointer for contributors (the check would pass for nothing)');
    assert.doesNotMatch(packaged, /^## (Contributing|Development|Developing)\b/m);
    for (const developer of [
      /npm (start|test)\b/,
      /npm run (test|bench|emulator|screenshots)/,
      /\bemulator\b/i,
      /CONTRIBUTING/,
      /\b(src|test)\//,
      // Words to those who build it: a person who installed it reads what they can do, not how it was tested.
      /\b(our|UI|unit|in-editor) tests?\b/i,
      /\bdemo\b/i,
    ]) {
      assert.doesNotMatch(packaged, developer);
    }
    assert.doesNotMatch(packaged, /\n\s*\n\s*\n/, 'two blank lines in a row: a hole where something was left out');
    // The screenshots are replaced by one sentence that says where to see them.
    assert.equal([...packaged.matchAll(/Screenshots of each step are in the README/g)].length, 1);
    assert.doesNotMatch(packaged, /media\/screenshots\/[\w.-]+\.png/);
  });
});
