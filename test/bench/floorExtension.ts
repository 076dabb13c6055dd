// Loaded in the VS Code extension host as the main module of a helper extension the activation figure installs
// (test/bench/figures/activation.ts): the floor of any extension that contributes what ours does. Its manifest is the
// shipped one with every id renamed (so the two can be installed side by side), and its activate() makes the same
// registrations as src/extension.ts, in the same numbers, read from that manifest, with handlers that do nothing: a
// command, tree view, serializer, participant, provider or listener each, and no module of ours. What the extension
// takes beyond this is what its own code adds; what this takes beyond an empty extension is the price of the
// registrations themselves (and of the host building the `vscode` API object for an extension that imports it).
import * as vscode from 'vscode';

interface Manifest {
  activationEvents?: string[];
  contributes?: {
    commands?: { command: string }[];
    views?: Record<string, { id: string }[]>;
    chatParticipants?: { id: string }[];
    languageModelChatProviders?: { vendor: string }[];
    languages?: { id: string }[];
  };
}

const nothing = () => undefined;

export function activate(context: vscode.ExtensionContext): void {
  const manifest = context.extension.packageJSON as Manifest;
  const contributes = manifest.contributes ?? {};
  const changed = new vscode.EventEmitter<void>();
  const tree: vscode.TreeDataProvider<never> = { getChildren: () => [], getTreeItem: nothing as never };
  context.subscriptions.push(changed);
  for (const view of Object.values(contributes.views ?? {}).flat()) {
    context.subscriptions.push(vscode.window.createTreeView(view.id, { treeDataProvider: tree }));
  }
  for (const { id } of contributes.chatParticipants ?? []) {
    const participant = vscode.chat.createChatParticipant(id, nothing);
    participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'activity-bar.svg');
    context.subscriptions.push(participant);
  }
  for (const { command } of contributes.commands ?? []) {
    context.subscriptions.push(vscode.commands.registerCommand(command, nothing));
  }
  for (const event of manifest.activationEvents ?? []) {
    const viewType = /^onWebviewPanel:(.+)$/.exec(event)?.[1];
    if (!viewType) continue;
    context.subscriptions.push(vscode.window.registerWebviewPanelSerializer(viewType, { deserializeWebviewPanel: async () => {} }));
  }
  for (const { vendor } of contributes.languageModelChatProviders ?? []) {
    context.subscriptions.push(
      vscode.lm.registerLanguageModelChatProvider(vendor, {
        onDidChangeLanguageModelChatInformation: changed.event,
        provideLanguageModelChatInformation: () => [],
        provideLanguageModelChatResponse: async () => {},
        provideTokenCount: async () => 0,
      }),
    );
  }
  // The reasoning documents' scheme is the language the manifest contributes for them (src/contributions.ts).
  for (const { id } of contributes.languages ?? []) {
    context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(id, { provideTextDocumentContent: () => '' }));
  }
  context.subscriptions.push(vscode.window.onDidChangeWindowState(nothing));
  // The entry reads the stored jobs, keys and downloads once.
  void context.globalState.keys().length;
}

export function deactivate(): void {}
