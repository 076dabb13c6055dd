// Choose How to Read…: when the model list cannot be read, or could be read two ways, the person picks the list (or
// the field that names its items) from the candidates of the service's last answer, each with its path and a few of
// the names it gives; the choice is kept as the service's profile and the Models view lists by it at once. The answer
// is the one the extension itself kept (ServiceProfiles.lastUnreadable): the command takes nothing from its arguments.
import * as vscode from 'vscode';
import { modelListChoices, type ModelListChoice } from '../../api/modelListInference';
import { describeModelListProfile } from '../../api/profileWords';
import { COMMANDS } from '../../contributions';
import type { Services } from '../../services';
import { showInformationMessage } from '../../util/notify';
import { interact } from '../../util/quickInputStep';
import { untrustedText } from '../../util/untrustedText';
import type { ModelsTreeProvider } from './modelsTree';

interface ChoiceItem extends vscode.QuickPickItem {
  choice: ModelListChoice;
}

export function chooseHowToReadCommand(services: Services, models: ModelsTreeProvider) {
  return { [COMMANDS.chooseHowToRead]: () => chooseHowToRead(services, models) };
}

/** Resolves true when a way was chosen (and the view refreshed by it). */
async function chooseHowToRead(services: Services, models: ModelsTreeProvider): Promise<boolean> {
  const { origin } = await services.session.current();
  const last = origin === undefined ? undefined : services.profiles.lastAnswer(origin, 'modelList');
  const body = last?.unreadable ? last.body : undefined;
  if (origin === undefined || body === undefined) {
    void showInformationMessage(
      vscode.l10n.t('No unreadable model list of this service is kept in this window: there is nothing to choose.'),
    );
    return false;
  }
  const choices = modelListChoices(body);
  if (choices.length === 0) {
    void showInformationMessage(
      vscode.l10n.t("Nothing in the service's last answer looks like a list of model names: see the log for what it sent."),
    );
    return false;
  }
  const pick = vscode.window.createQuickPick<ChoiceItem>();
  pick.title = vscode.l10n.t('Choose How to Read the Model List');
  pick.placeholder = vscode.l10n.t('Where are the model names in the service’s answer?');
  pick.matchOnDescription = true;
  pick.items = choices.map((choice) => ({
    choice,
    // Paths and names are the service's words: neutralised for the quick pick (no icons, links or markup).
    label: untrustedText(choice.profile.lists.map((l) => l.names).join(' + '), { maxChars: 120 }),
    description: vscode.l10n.t('{0} models', choice.count),
    detail: untrustedText(
      `${choice.samples.join(', ')}${choice.count > choice.samples.length ? ', …' : ''} · ${describeModelListProfile(choice.profile)}`,
      {
        maxChars: 200,
      },
    ),
  }));
  const result = await interact<ModelListChoice>(pick, { back: false }, (finish) => [
    pick.onDidAccept(() => {
      const [item] = pick.selectedItems;
      if (item) finish({ action: 'next', value: item.choice });
    }),
  ]);
  if (result.action !== 'next') return false;
  await services.profiles.choose(origin, 'modelList', result.value.profile);
  await models.refresh();
  return true;
}
