// Every string the extension writes for people to read goes through vscode.l10n.t (or, in the modules that run without
// VS Code, `l10n.t` of src/l10n.ts), so a translation can replace it. This finds text written straight into the places
// the user sees it: a notification or its buttons, a progress title, a quick pick or input box, a save dialog, a tree
// item, the status bar, a webview panel's title. Text built elsewhere and passed in is checked where it is written.
// The playground page (browser code) translates through the same l10n.t (the host passes it the bundle): there the
// places are those of its DOM builder and tables (PAGE_PATTERNS below).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const SRC = path.resolve(__dirname, '../../../src');
/**
 * Not shown to a person by the extension: the client's errors (api/, which runs without VS Code: its words reach the
 * user through classifyError); what a model reads of each tool (as package.json's
 * modelDescription, which is not localized either) and the MCP server's results for an agent (in English, as the
 * language-model tools' results in toolText.ts).
 */
const OUTSIDE = [/^api\//, /^features\/tools\/toolDefinitions\.ts$/, /^mcp\//];
/**
 * Webview pages: checked for the places of the page (besides the host's). The evaluation report's page
 * (features/evaluate/report/page/) follows once it translates: it reads the bundle as the playground's does (pageL10n.ts).
 */
const PAGES = [/^features\/playground\/page\//, /^features\/evaluate\/report\/page\//];

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

/** The attributes of the page's `h(tag, attributes, ...children)` that a person reads (or hears). */
const PAGE_ATTRS = new Set(['title', 'aria-label', 'placeholder', 'label', 'alt']);
/** Assignments that show text on the page: `el.textContent = …`. */
const PAGE_PROPS = new Set(['textContent', 'innerText', 'title', 'placeholder', 'ariaLabel', 'label']);
/** Calls whose arguments go into the page as text. */
const PAGE_TEXT_CALLS = new Set(['append', 'prepend', 'replaceChildren', 'createTextNode', 'after', 'before']);
/** Calls whose string arguments are names, selectors or markup, not text: `addEventListener('keydown', …)`. */
const PAGE_NAME_CALLS = new Set([
  'h',
  'icon',
  'addEventListener',
  'removeEventListener',
  'setAttribute',
  'getAttribute',
  'querySelector',
  'querySelectorAll',
  'closest',
  'getElementById',
  'load',
  'insertAdjacentHTML',
  'attrSet',
  'attrGet',
  'attrJoin',
  'toLocaleString',
  'toggle',
  'add',
  'remove',
  'contains',
  'split',
  'join',
  'replace',
  'matchAll',
  'repeat',
]);

/**
 * Text on the page. `prose`: only what reads as words to a person (a capital word, words with spaces, a sentence's
 * end), for the places that also hold names and ids (tables, arguments of helpers, returned values); calls are the
 * helpers' business (their arguments are checked where they are written).
 */
function isPageText(node: ts.Node, prose: boolean): boolean {
  const words = (text: string) => hasWords(text) && (!prose || isProse(text));
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return words(node.text);
  if (ts.isTemplateExpression(node)) {
    return (
      words([node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ')) ||
      node.templateSpans.some((s) => isPageText(s.expression, prose))
    );
  }
  if (ts.isParenthesizedExpression(node)) return isPageText(node.expression, prose);
  if (ts.isConditionalExpression(node)) return isPageText(node.whenTrue, prose) || isPageText(node.whenFalse, prose);
  if (ts.isBinaryExpression(node)) {
    const kind = node.operatorToken.kind;
    const joins = [ts.SyntaxKind.PlusToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(kind);
    return joins && (isPageText(node.left, prose) || isPageText(node.right, prose));
  }
  return false;
}

function isProse(text: string): boolean {
  if (isMarkup(text)) return shownInMarkup(text);
  const t = text.trim();
  return (
    /(?:^|[^A-Za-z])[A-Z][a-z]/.test(t) ||
    /[A-Za-z]{2}\S*\s+\S*[A-Za-z]/.test(t) ||
    /\s[A-Za-z]{2}/.test(text) ||
    /[A-Za-z][.…?!:]$/.test(t)
  );
}

/** HTML written as a string (the markdown renderer's code-block button): only its shown attributes and text count. */
function isMarkup(text: string): boolean {
  return /<\/?[a-z][\w-]*[\s>]|^\s*[\w-]+="/.test(text);
}

function shownInMarkup(text: string): boolean {
  return /\b(?:title|aria-label|alt|placeholder)="[^"]*[A-Za-z]{2}/.test(text) || />[^<]*[A-Za-z]{2}[^<]*</.test(text);
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

/** `file:line: text` for each string written into a shown place without l10n.t; `page`: a webview page's places too. */
export function unlocalizedStrings(fileName: string, source: string, { page = false } = {}): string[] {
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
    if (page) {
      // A page has none of the host's places (no vscode API): its own only.
      visitPage(node);
    } else if (ts.isCallExpression(node)) {
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
  /** The page's places: its DOM builder, text put into elements, tables of shown text, helpers given text. */
  const visitPage = (node: ts.Node): void => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const name = calleeName(node) ?? '';
      const args = node.arguments ?? [];
      if (name === 'h') {
        const [, attributes, ...children] = args;
        if (attributes && ts.isObjectLiteralExpression(attributes)) {
          for (const p of attributes.properties) {
            if (ts.isPropertyAssignment(p) && PAGE_ATTRS.has(propName(p.name) ?? '') && isPageText(p.initializer, false)) {
              flag(p.initializer);
            }
          }
        }
        for (const child of children) if (isPageText(child, false)) flag(child);
      } else if (PAGE_TEXT_CALLS.has(name)) {
        for (const arg of args) if (isPageText(arg, false)) flag(arg);
      } else if (name !== 't' && !PAGE_NAME_CALLS.has(name)) {
        // A helper that shows its argument: label(id, title, 'Model'), new KnobsGroup('Settings A', …).
        for (const arg of args) if (isPageText(arg, true)) flag(arg);
      }
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const assigned = ts.isPropertyAccessExpression(node.left) ? node.left.name.text : '';
      if (PAGE_PROPS.has(assigned) && isPageText(node.right, false)) flag(node.right);
      // errors.modelName = 'Choose a model.'
      else if (assigned && !PAGE_PROPS.has(assigned) && isPageText(node.right, true)) flag(node.right);
    } else if (ts.isPropertyAssignment(node)) {
      // A table of shown text ({ idle: 'Ready.' }), an error's message; the builder's attributes are checked above.
      const inBuilder =
        ts.isObjectLiteralExpression(node.parent) && ts.isCallExpression(node.parent.parent) && calleeName(node.parent.parent) === 'h';
      if (!inBuilder && isPageText(node.initializer, true)) flag(node.initializer);
    } else if (ts.isReturnStatement(node) || ts.isArrowFunction(node) || ts.isVariableDeclaration(node)) {
      // A message returned by a check, a text kept in a variable on its way to the page.
      const value = ts.isReturnStatement(node) ? node.expression : ts.isArrowFunction(node) ? node.body : node.initializer;
      if (value && !ts.isBlock(value) && isPageText(value, true)) flag(value);
    }
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
      .flatMap((rel) => unlocalizedStrings(rel, fs.readFileSync(path.join(SRC, rel), 'utf8'), { page: PAGES.some((re) => re.test(rel)) }));
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

  it("finds a shown string the playground page writes without l10n.t (the page's places)", () => {
    const fixture = fs.readFileSync(path.resolve(__dirname, '../../../test/unit/fixtures/unlocalizedPage.ts.txt'), 'utf8');
    assert.deepEqual(
      unlocalizedStrings('page.ts', fixture, { page: true }).map((f) => f.replace(/^page\.ts:\d+: /, '')),
      [
        "'Copy the answer'",
        "' Copy'",
        "'Preset name'",
        "'Name of the preset'",
        "'On this machine'",
        '`${count} chars`',
        "'Model'",
        "count ? 'Done.' : ''",
        "'Total time'",
        "stopped ? l10n.t('Ask something…') : 'Ask something…'",
        "'Loading models…'",
        "'Ready.'",
        "stopped ? ' · stopped' : ''",
        '`Temperature must be a number from 0 to ${count}.`',
        '`<span class="md-image" title="Images are not loaded">${count}</span>`',
      ],
    );
    // Read as extension-host code, the same file shows only the places the two share (a label, a title, a placeholder).
    assert.deepEqual(
      unlocalizedStrings('page.ts', fixture).map((f) => f.replace(/^page\.ts:\d+: /, '')),
      ["'On this machine'", "'Total time'", "stopped ? l10n.t('Ask something…') : 'Ask something…'"],
    );
  });
});
