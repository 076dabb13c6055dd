// The extension's entry, what VS Code loads to activate it. It is kept small on purpose: activation happens in
// every window (onStartupFinished, so jobs are followed after a reload) and its cost is measured (test/bench, figure
// 1). It registers what package.json contributes (the commands, the two views, the playground's and the report's
// serializers, the language-model provider, the chat participant and the language-model tools, each forwarding to
// the main module) and loads the rest, dist/main.js (src/main.ts), on first use: a command, a view asking for its
// rows, a panel to restore, a job still running or a download a reload interrupted; and, with a key stored, a few
// seconds after startup, to offer the models to VS Code's Chat (below).
import * as vscode from 'vscode';
import {
  CHAT_PARTICIPANT,
  CHAT_VENDOR,
  COMMANDS,
  LM_TOOLS,
  PLAYGROUND_VIEW_TYPE,
  REASONING_SCHEME,
  REPORT_VIEW_TYPE,
} from './contributions';
import { DeferredTree } from './deferredTree';
import { isActive, type JobRecord } from './jobs/jobRecord';
import type { ExtensionApi, Shell } from './main';
import { VIEW_JOBS, VIEW_MODELS } from './services';
import { API_KEY_ORIGINS_KEY, ENV_API_KEY, ENV_OPEN_CHAT, JOBS_KEY_PREFIX, PENDING_DOWNLOADS_KEY } from './storageKeys';

/** What activate() returns. Not a public API: the in-editor tests reach the live services through it. */
export interface ExtensionExports {
  /** Loads the main module if it is not loaded yet. */
  main(): Promise<ExtensionApi>;
}

/**
 * After startup, so what follows does not compete with the window opening: an interrupted download's offer, and the
 * models offered to Chat (which loads the main module and lists the models once).
 */
const AFTER_STARTUP_MS = 3000;

export function activate(context: vscode.ExtensionContext): ExtensionExports {
  let loading: Promise<ExtensionApi> | undefined;
  let disposed = false;
  const main = (): Promise<ExtensionApi> =>
    (loading ??= import('./main.js')
      .then((m) => {
        // Loaded after deactivation (a use just before it): nothing may be registered into disposed subscriptions.
        if (disposed) throw new Error('Hosted Reasoning was deactivated.');
        return m.start(context, shell);
      })
      .catch((error: unknown) => {
        loading = undefined; // start() disposed what it had built: the next use tries again
        throw error;
      }));

  const models = new DeferredTree<unknown>(main);
  const jobs = new DeferredTree<unknown>(main);
  const chatModelsChanged = new vscode.EventEmitter<void>();
  const shell: Shell = {
    modelsView: vscode.window.createTreeView(VIEW_MODELS, { treeDataProvider: models, showCollapseAll: false }),
    jobsView: vscode.window.createTreeView(VIEW_JOBS, { treeDataProvider: jobs }),
    connectModels: (provider) => models.connect(provider),
    connectJobs: (provider) => jobs.connect(provider),
    announceChatModels: () => chatModelsChanged.fire(),
  };
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT, async (request, chatContext, stream, token) =>
    (await main()).chat.participant(request, chatContext, stream, token),
  );
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'activity-bar.svg');
  context.subscriptions.push(
    { dispose: () => (disposed = true) },
    models,
    jobs,
    shell.modelsView,
    shell.jobsView,
    // Registered once, for good: each forwards its arguments, as given, to the handler the main module made for it.
    ...Object.values(COMMANDS).map((id) =>
      vscode.commands.registerCommand(id, async (...args: unknown[]) => (await main()).commands[id](...args)),
    ),
    vscode.window.registerWebviewPanelSerializer(PLAYGROUND_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => (await main()).playground.deserializeWebviewPanel(panel, state),
    }),
    vscode.window.registerWebviewPanelSerializer(REPORT_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => (await main()).report.deserializeWebviewPanel(panel, state),
    }),
    chatModelsChanged,
    // The models in Chat and `vscode.lm`: VS Code asks for the list when something (a picker, an extension) wants it,
    // which loads the main module then; a request forwards as it came.
    vscode.lm.registerLanguageModelChatProvider(CHAT_VENDOR, {
      onDidChangeLanguageModelChatInformation: chatModelsChanged.event,
      provideLanguageModelChatInformation: async (options) => (await main()).chat.models.provideLanguageModelChatInformation(options),
      provideLanguageModelChatResponse: async (model, messages, options, progress, token) =>
        (await main()).chat.models.provideLanguageModelChatResponse(model, messages, options, progress, token),
      provideTokenCount: async (model, text) => (await main()).chat.models.provideTokenCount(model, text),
    }),
    participant,
    // The language-model tools (an agent's hands on the whole lifecycle): registered once, for good, each forwarding to
    // the main module's tool of its name, which loads on the first use (preparing an invocation is one).
    ...Object.values(LM_TOOLS).map((name) =>
      vscode.lm.registerTool<unknown>(name, {
        prepareInvocation: async (options, token) => (await main()).tools[name].prepareInvocation?.(options, token),
        invoke: async (options, token) => (await main()).tools[name].invoke(options, token),
      }),
    ),
    // A Chat answer's reasoning, opened from its "Show reasoning" link; registered here so that a tab restored after a
    // reload finds its provider (and says the reasoning is gone rather than failing to open).
    vscode.workspace.registerTextDocumentContentProvider(REASONING_SCHEME, {
      provideTextDocumentContent: async (uri) => (await main()).chat.reasonings.provideTextDocumentContent(uri),
    }),
  );

  const timers: ReturnType<typeof setTimeout>[] = [];
  context.subscriptions.push({ dispose: () => timers.forEach(clearTimeout) });
  // The entry stays free of other modules (src/util/notify.ts included); this text is the extension's own load error.
  // eslint-disable-next-line no-restricted-syntax
  const report = (failed: string) => (e: unknown) => void vscode.window.showErrorMessage(vscode.l10n.t('{0}: {1}', failed, String(e)));
  // A job that was running when the window closed is followed again (status bar, notification) without waiting for
  // the user to open the views; right after activation rather than during it.
  const followJobs = () => void main().catch(report(vscode.l10n.t('Hosted Reasoning could not resume following its jobs')));
  if (hasActiveJobs(context.globalState)) timers.push(setTimeout(followJobs, 0));
  else {
    // A job another window started (globalState is shared) is this window's to follow if that window closes: checked
    // when this window gains focus, an event rather than a timer, until the main module is loaded.
    const focus = vscode.window.onDidChangeWindowState((state) => {
      if (loading) focus.dispose();
      else if (state.focused && hasActiveJobs(context.globalState)) {
        focus.dispose();
        followJobs();
      }
    });
    context.subscriptions.push(focus);
  }
  // VS Code's Chat lists a provider's models only once something has asked `vscode.lm` for them (the workbench does
  // not ask by itself: seen in 1.139), and a participant runs only with a model picked. With a key stored, ask once
  // after startup, so that the models are in the Chat model picker before the person opens our views. That loads the
  // main module and lists the models (one request), which a person with a key pays in every window: the price of
  // the models being in Chat at all; left until the window has opened. (The main module asks as well when a key is
  // given later: chatModelProvider.ts.)
  const afterStartup = (then: () => unknown) =>
    new Promise((resolve) => {
      timers.push(setTimeout(() => resolve(then()), AFTER_STARTUP_MS));
    });
  let modelsAsked: Promise<unknown> | undefined;
  if (context.globalState.get<unknown[]>(API_KEY_ORIGINS_KEY)?.length || process.env[ENV_API_KEY]?.trim()) {
    modelsAsked = afterStartup(() => vscode.lm.selectChatModels({ vendor: CHAT_VENDOR }).then(undefined, () => undefined));
  }
  // The demo (`npm start`) opens Chat ready for `@hosted`: VS Code shows its Chat view at startup, where a plain
  // question would go to Copilot's sign-in. Opened once the models are listed, so the picker has ours to pick, not
  // after a fixed delay a cold machine can outlast.
  if (process.env[ENV_OPEN_CHAT] === '1') {
    void (modelsAsked ?? afterStartup(() => undefined)).then(() =>
      Promise.resolve(vscode.commands.executeCommand(COMMANDS.askInChat)).catch(
        report(vscode.l10n.t('Hosted Reasoning could not open Chat')),
      ),
    );
  }
  if (context.globalState.get<unknown[]>(PENDING_DOWNLOADS_KEY)?.length) {
    timers.push(
      setTimeout(
        () =>
          void main()
            .then((api) => api.offerPendingDownloads())
            .catch(report(vscode.l10n.t('Hosted Reasoning could not offer to resume a download'))),
        AFTER_STARTUP_MS,
      ),
    );
  }
  return { main };
}

export function deactivate(): void {}

function hasActiveJobs(state: vscode.Memento): boolean {
  return state.keys().some((key) => key.startsWith(JOBS_KEY_PREFIX) && (state.get<JobRecord[]>(key) ?? []).some(isActive));
}
