// Run Locally: from a downloaded custom model (the Models view, the download's notification) or a `.gguf` in the
// Explorer, to a playground with that file as its model. The argument names a model or is an Explorer selection
// inside the workspace, never a path: a downloaded model's file comes from the record the download wrote, and the
// page is given only the record's id.
import * as path from 'node:path';
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { untrustedText } from '../../util/untrustedText';
import { COMMANDS } from '../../contributions';
import { platformPackageMessage } from '../../local/localRunMessages';
import type { LocalModel } from '../../local/storedLocalModels';
import type { Services } from '../../services';
import type { PlaygroundManager } from '../playground/host/playgroundManager';
import type { PlaygroundPanel } from '../playground/host/playgroundPanel';
import { modelNameFromArgument } from '../models/modelArgument';
import { showInformationMessage, showWarningMessage } from '../../util/notify';

export function runLocallyCommand(services: Services, playground: PlaygroundManager) {
  return {
    // Returns the panel it opened (for tests), or undefined when it told the user why not.
    [COMMANDS.runLocally]: (arg?: unknown) => runLocally(services, playground, arg),
  };
}

async function runLocally(services: Services, playground: PlaygroundManager, arg: unknown): Promise<PlaygroundPanel | undefined> {
  if (!(await services.local.runtime.available())) {
    void showWarningMessage(platformPackageMessage());
    return undefined;
  }
  const model = arg instanceof vscode.Uri ? await chosenFile(services, playground, arg) : await downloadedModel(services, playground, arg);
  if (!model) return undefined;
  services.log.info(`Run Locally: ${model.label} (${model.source}).`);
  return playground.openPanel({
    modelName: model.id,
    title: vscode.l10n.t('Playground · Local · {0}', untrustedText(model.label, { maxChars: 80 })),
  });
}

/**
 * In Restricted Mode a file the workspace controls waits for trust (src/local/trustPolicy.ts): the command says why,
 * offers Manage Workspace Trust, and runs again by itself once trust is granted.
 */
function trusted(services: Services, playground: PlaygroundManager, arg: unknown, model: Pick<LocalModel, 'source' | 'path'>) {
  return services.local.trust.allows(model, () => runLocally(services, playground, arg));
}

async function chosenFile(services: Services, playground: PlaygroundManager, uri: vscode.Uri): Promise<LocalModel | undefined> {
  // As finetune does: only what the user sees in this workspace, so a link cannot name any file on the machine.
  if (uri.scheme !== 'file' || !vscode.workspace.getWorkspaceFolder(uri)) {
    void showWarningMessage(vscode.l10n.t('Only .gguf files in this workspace can be run locally: right-click one in the Explorer.'));
    return undefined;
  }
  if (path.extname(uri.fsPath).toLowerCase() !== '.gguf') {
    void showWarningMessage(vscode.l10n.t('{0} is not a GGUF model file (.gguf).', path.basename(uri.fsPath)));
    return undefined;
  }
  const stat = await fsp.stat(uri.fsPath).catch(() => undefined);
  if (!stat?.isFile()) {
    void showWarningMessage(vscode.l10n.t('{0} could not be read.', path.basename(uri.fsPath)));
    return undefined;
  }
  // Before it is recorded: a file of an untrusted workspace is not listed for the playground either.
  if (!(await trusted(services, playground, uri, { source: 'file', path: uri.fsPath }))) return undefined;
  return services.local.addFile(uri.fsPath, stat.size);
}

async function downloadedModel(services: Services, playground: PlaygroundManager, arg: unknown): Promise<LocalModel | undefined> {
  const modelName = modelNameFromArgument(arg);
  if (!modelName) {
    void showInformationMessage(
      vscode.l10n.t('Choose Run Locally on a downloaded model in the Models view, or on a .gguf file in the Explorer.'),
    );
    return undefined;
  }
  const { origin } = await services.session.current();
  const model = origin ? await services.local.download(origin, modelName) : undefined;
  if (model) return (await trusted(services, playground, arg, model)) ? model : undefined;
  const download = vscode.l10n.t('Download');
  const choice = await showInformationMessage(
    vscode.l10n.t('{0} is not downloaded on this machine (or its file was moved or deleted): download it to run it locally.', modelName),
    download,
  );
  if (choice === download) await vscode.commands.executeCommand(COMMANDS.download, { modelName });
  return undefined;
}
