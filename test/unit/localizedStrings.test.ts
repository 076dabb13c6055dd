// Every string the extension writes for people to read goes through vscode.l10n.t (or, in the modules that run without
// VS Code, `l10n.t` of src/l10n.ts), so a translation can replace it. This finds text written straight into the places
// the user sees it: a notification or its buttons, a progress title, a quick pick or input box, a save dialog, a tree
// item, the status bar, a webview panel's title. Text built elsewhere and passed in is checked where it is written.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const SRC = path.resolve(__dirname, '../../../src');
/** The service client runs without VS Code (its words reach the user through classifyError); the webview page is not the extension host. */
const OUTSIDE = [/^api\//, /^webviews\/playground\/page\//];

const NOTIFY = new Set(['showErrorMessage', 'showWarningMessage', 'showInformationMessage']);
/** Calls whose object arguments carry shown text in the properties of SHOWN_PROPS. */
const WITH_OPTIONS = new Set([
  ...NOTIFY,
  'withProgress',
  'showQuickPick',
  'createQuickPick',
  'showInputBox',
  'createInputBox',
  'showSaveDialog',
  'showOpenDialog',
  'createStatusBarItem',
  'setStatusBarMessage',
  // src/util/showError.ts: what failed, shown before the reason.
  'showError',
  // finetuneCommand's say(level, message, actions): a notification.
  'say',
  // src/features/models/modelArgument.ts: the picker's placeholder.
  'pickModel',
]);
/** Calls whose first arguments are not shown (the services, a level). */
const FIRST_SHOWN_ARG: Record<string, number> = { showError: 1, say: 1, pickModel: 1 };
const SHOWN_PROPS = new Set([
  'label',
  'description',
  'detail',
  'tooltip',
  'title',
  'text',
  'placeHolder',
  'placeholder',
  'prompt',
  'validationMessage',
  'saveLabel',
  'openLabel',
  'message',
]);

/** Text a person reads: letters besides codicons (`$(sync~spin)`) and interpolated values. */
function isText(node: ts.Node): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return hasWords(node.text);
  if (ts.isTemplateExpression(node)) {
    return (
      hasWords([node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ')) ||
      node.templateSpans.some((s) => isText(s.expression))
    );
  }
  // Text passed through a helper on its way (untrustedText(`Evaluating ${name}…`)) is still written here; l10n.t's is not.
  if (ts.isCallExpression(node)) return calleeName(node) !== 't' && node.arguments.some(isText);
  if (ts.isParenthesizedExpression(node)) return isText(node.expression);
  if (ts.isConditionalExpression(node)) return isText(node.whenTrue) || isText(node.whenFalse);
  if (ts.isBinaryExpression(node)) return isText(node.left) || isText(node.right);
  return false;
}

function hasWords(text: string): boolean {
  return /[A-Za-z]{2}/.test(text.replace(/\$\([\w~-]+\)/g, ''));
}

function calleeName(call: ts.CallExpression | ts.NewExpression): string | undefined {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

function propName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

/** `file:line: text` for each string written into a shown place without l10n.t. */
export function unlocalizedStrings(fileName: string, source: string): string[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const flag = (node: ts.Node): void => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    found.push(`${fileName}:${line}: ${node.getText(sf)}`);
  };
  const checkOptions = (node: ts.Node): void => {
    if (ts.isArrayLiteralExpression(node)) node.elements.forEach(checkOptions);
    else if (ts.isObjectLiteralExpression(node)) {
      for (const p of node.properties) {
        if (!ts.isPropertyAssignment(p)) continue;
        if (SHOWN_PROPS.has(propName(p.name) ?? '') && isText(p.initializer)) flag(p.initializer);
        // A dialog's file-type names ({ 'GGUF model': ['gguf'] }) are shown in its type list.
        if (propName(p.name) === 'filters' && ts.isObjectLiteralExpression(p.initializer)) {
          for (const f of p.initializer.properties) if (f.name && ts.isStringLiteral(f.name) && hasWords(f.name.text)) flag(f.name);
        }
      }
    } else if (isText(node)) flag(node);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node) ?? '';
      if (WITH_OPTIONS.has(name)) node.arguments.slice(FIRST_SHOWN_ARG[name] ?? 0).forEach(checkOptions);
      if (name === 'createWebviewPanel' && node.arguments[1] && isText(node.arguments[1])) flag(node.arguments[1]);
    } else if (ts.isNewExpression(node)) {
      if (/TreeItem$/.test(calleeName(node) ?? '') && node.arguments?.[0] && isText(node.arguments[0])) flag(node.arguments[0]);
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      // `name` too: a status bar item's name is shown in the bar's context menu.
      const assigned = ts.isPropertyAccessExpression(node.left) ? node.left.name.text : '';
      const shownName = assigned === 'name' && ts.isStringLiteral(node.right) && /\s/.test(node.right.text); // not an Error's name
      if ((SHOWN_PROPS.has(assigned) && isText(node.right)) || shownName) flag(node.right);
    } else if (ts.isPropertyAssignment(node)) {
      // A quick-pick item, a button or a fix built ahead of the call that shows it.
      const name = propName(node.name) ?? '';
      if (
        ['label', 'description', 'detail', 'tooltip', 'placeHolder', 'prompt', 'saveLabel', 'openLabel'].includes(name) &&
        isText(node.initializer)
      ) {
        flag(node.initializer);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...new Set(found)];
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the runtime strings of the extension host', () => {
  it('pass every shown string through l10n.t', () => {
    const found = sources(SRC)
      .map((file) => path.relative(SRC, file).split(path.sep).join('/'))
      .filter((rel) => !OUTSIDE.some((re) => re.test(rel)))
      .flatMap((rel) => unlocalizedStrings(rel, fs.readFileSync(path.join(SRC, rel), 'utf8')));
    assert.deepEqual(found, []);
  });

  it('finds a shown string written without l10n.t (the check can fail)', () => {
    const fixture = fs.readFileSync(path.resolve(__dirname, '../../../test/unit/fixtures/unlocalized.ts.txt'), 'utf8');
    assert.deepEqual(
      unlocalizedStrings('fixture.ts', fixture).map((f) => f.replace(/^fixture\.ts:\d+: /, '')),
      [
        "'Downloaded.'",
        '`Downloaded ${name}`',
        "'Open'",
        "'Downloading'",
        "'Pick a model'",
        "'Model name'",
        "'Jobs'",
        '`$(sync~spin) ${count} running`',
        "'A base model'",
        "'Result'",
        "'Jobs status'",
        '`$(beaker) ${untrustedText(`Evaluating ${name}…`)}`',
        "'GGUF model'",
      ],
    );
  });
});
