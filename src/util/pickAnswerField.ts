// The quick pick of Choose How to Read…: the fields of an answer the extension could not read (answerFields.ts), each
// with its path and a few of its values, for the person to say which one holds what was missing. One pick for every
// kind of answer (a job's status, a started job's id, an inference answer, a download's URL), so they look and behave
// alike: paths and values are the service's words, neutralised; the pick stays open while the person reads the log.
import * as vscode from 'vscode';
import type { AnswerField } from '../api/answerFields';
import { interact } from './quickInputStep';
import { untrustedText } from './untrustedText';

interface FieldItem extends vscode.QuickPickItem {
  /** Null for the item that skips the choice (FieldPickText.skip). */
  field: AnswerField | null;
}

export interface FieldPickText {
  title: string;
  placeholder: string;
  /** A few words beside a field's path (ours, not the service's), e.g. "true when finished". */
  describe?: (field: AnswerField) => string | undefined;
  /** When set, a first item of these words (ours) that chooses no field: the pick then resolves with null. */
  skip?: string;
}

/** Resolves with the field chosen, null when the skip item was, or undefined when the pick was dismissed. */
export async function pickAnswerField(
  fields: readonly AnswerField[],
  text: FieldPickText & { skip: string },
): Promise<AnswerField | null | undefined>;
export async function pickAnswerField(fields: readonly AnswerField[], text: FieldPickText): Promise<AnswerField | undefined>;
export async function pickAnswerField(fields: readonly AnswerField[], text: FieldPickText): Promise<AnswerField | null | undefined> {
  const pick = vscode.window.createQuickPick<FieldItem>();
  pick.title = text.title;
  pick.placeholder = text.placeholder;
  pick.matchOnDescription = true;
  // The person may look at the log (what the service sent) before choosing: the pick stays open when focus leaves it.
  pick.ignoreFocusOut = true;
  const skip: FieldItem[] = text.skip === undefined ? [] : [{ field: null, label: text.skip }];
  pick.items = skip.concat(
    fields.map((field) => ({
      field,
      // Paths and values are the service's words: neutralised for the quick pick (no icons, links or markup).
      label: untrustedText(field.path === '' ? vscode.l10n.t('the whole answer') : field.path, { maxChars: 120 }),
      description: text.describe?.(field),
      detail: untrustedText(field.samples.join(', '), { maxChars: 200 }),
    })),
  );
  const result = await interact<AnswerField | null>(pick, { back: false }, (finish) => [
    pick.onDidAccept(() => {
      const [item] = pick.selectedItems;
      if (item) finish({ action: 'next', value: item.field });
    }),
  ]);
  return result.action === 'next' ? result.value : undefined;
}
