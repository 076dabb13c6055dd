// globalState keys read by more than one module (the entry module peeks at them to decide whether the rest of the
// extension must load at startup).
/** Job records, one list per scope: `<prefix><scope>` (see JobStore). */
export const JOBS_KEY_PREFIX = 'hostedReasoning.jobs:';
/** Downloads a reload interrupted, offered for resumption (see features/download/downloadCommand.ts). */
export const PENDING_DOWNLOADS_KEY = 'hostedReasoning.pendingDownloads';
/** Custom models downloaded per origin and .gguf files chosen in the Explorer (see local/localModels.ts). */
export const LOCAL_MODELS_KEY = 'hostedReasoning.localModels';
/** Finished evaluations the history limit dropped, per model: `<prefix><scope>` (see JobStore). Not under JOBS_KEY_PREFIX. */
export const DROPPED_EVALUATIONS_KEY_PREFIX = 'hostedReasoning.droppedEvaluations:';
/** The evaluate command's recently chosen datasets, one list per scope: `<prefix><scope>` (see features/evaluate/datasetItems.ts). */
export const RECENT_DATASETS_KEY_PREFIX = 'hostedReasoning.recentDatasets:';
/** The origins that have an API key in SecretStorage, which cannot list its keys (see connection/apiKeyStore.ts). */
export const API_KEY_ORIGINS_KEY = 'hostedReasoning.apiKeyOrigins';
/** Not a globalState key: the environment variable that may hold a key (see connection/apiKeyStore.ts). */
export const ENV_API_KEY = 'HOSTED_REASONING_API_KEY';
/**
 * Not a globalState key: set to 1 (by `npm start`, for its demo), the window opens Chat for `@hosted` after startup
 * (Ask in Chat), so the first question typed there reaches the models rather than Copilot's sign-in.
 */
export const ENV_OPEN_CHAT = 'HOSTED_REASONING_OPEN_CHAT';
/** When the playground's history was last cleared (epoch ms): older runs are dropped from every page (see PlaygroundManager). */
export const PLAYGROUND_HISTORY_CLEARED_KEY = 'hostedReasoning.playground.historyClearedAt';
/** The service profiles, by service origin (see connection/serviceProfiles.ts). */
export const SERVICE_PROFILES_KEY = 'hostedReasoning.serviceProfiles';
/** Model names typed and accepted, or made by finetunes, one list per origin: `<prefix><origin>` (see connection/knownModelNames.ts). */
export const KNOWN_MODELS_KEY_PREFIX = 'hostedReasoning.knownModels:';
