// What an agent reads of each language-model tool, written once for both faces: the extension contributes it in
// package.json (contributes.languageModelTools: modelDescription and inputSchema, which VS Code reads from the
// manifest) and the MCP server (src/mcp) serves it as the tool's description and input schema. test/unit/languageModelTools.test.ts
// holds package.json equal to this table. No vscode.
import { LM_TOOLS, type LmToolName } from '../../contributions';

/** A tool's JSON Schema: an object of named properties (a type, not an interface: the MCP SDK's type indexes it). */
export type ToolInputSchema = {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
};

export interface ToolDefinition {
  /** For the model: what it does, when to use it, what it returns. */
  description: string;
  inputSchema: ToolInputSchema;
}

export const TOOL_DEFINITIONS: Readonly<Record<LmToolName, ToolDefinition>> = {
  [LM_TOOLS.listModels]: {
    description:
      "Lists the models the person's hosted reasoning service allows with their API key: base models and models tuned from them, one line each, with its kind (base or tuned), the base it was tuned from, and its last accuracy measured here (with the dataset). Use it to find a model name before asking, evaluating, finetuning from or downloading a model. Returns a short count line, then one line per model (base models first).",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  },
  [LM_TOOLS.listJobs]: {
    description:
      "Lists the finetune and evaluation jobs started from this editor for the current service and key, newest first: each job's id, kind, state and progress, the model and dataset, and how long it has run. Use it to find a job id, or to see what is running. Returns one line per job. For one job's fresh status use hosted_get_job.",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  },
  [LM_TOOLS.getJob]: {
    description:
      "Reads one job's status by its id (as hosted_start_finetune, hosted_start_evaluation or hosted_list_jobs gave it): its state and progress, the model a finished finetune made, an evaluation's accuracy, or the error in words. A running job is asked of the service first. Use it to poll a job you started: jobs take minutes, so poll now and then, not in a tight loop. Returns a few lines.",
    inputSchema: {
      type: 'object',
      properties: { jobId: { type: 'string', description: 'The job id.' } },
      required: ['jobId'],
      additionalProperties: false,
    },
  },
  [LM_TOOLS.startFinetune]: {
    description:
      'Starts finetuning a new model from PDF or DOCX documents in the workspace: uploads the named files to the service, which creates the model modelName from the base model baseModel. Files are paths relative to the workspace folder (or absolute paths inside it); nothing outside the workspace is read, and every file is checked first (a real PDF or DOCX by its content, not empty, within the size and count limits). Use it when the person asks for a model that knows their documents; find baseModel with hosted_list_models. It spends compute and the person confirms it. Returns the job id at once without waiting (a finetune takes minutes): poll with hosted_get_job. If a file cannot be used, nothing is started and each problem is named.',
    inputSchema: {
      type: 'object',
      properties: {
        files: {
          type: 'array',
          items: { type: 'string' },
          minItems: 1,
          description:
            "Paths of the PDF or DOCX files, relative to the workspace folder (in a multi-root workspace, starting with the folder's name).",
        },
        baseModel: { type: 'string', description: 'The base model to tune, a name from hosted_list_models.' },
        modelName: {
          type: 'string',
          description: 'The new model\'s name: letters, digits, ".", "_" and "-", at most 64 characters, not taken.',
        },
        numQs: {
          type: 'integer',
          minimum: 1,
          maximum: 10000,
          description: "How many training questions to generate (default: the person's setting).",
        },
        mode: { type: 'string', description: "The finetune mode (default: the person's setting, usually pretraining)." },
        useCase: { type: 'string', description: 'What the model is for, in a sentence (optional).' },
      },
      required: ['files', 'baseModel', 'modelName'],
      additionalProperties: false,
    },
  },
  [LM_TOOLS.startEvaluation]: {
    description:
      "Starts an evaluation of a model on one of the service's datasets: the service asks the dataset's questions and counts the correct answers. Use it to measure a tuned model, or its base model on the same dataset to compare them. It spends compute and the person confirms it. Returns the job id at once without waiting: poll with hosted_get_job, then read hosted_get_evaluation_report. If the same model is already being evaluated on the same dataset, nothing is started and the running job's id is returned to follow; set startAnother only when the person asked for a second run.",
    inputSchema: {
      type: 'object',
      properties: {
        modelName: { type: 'string', description: 'The model to evaluate, a name from hosted_list_models.' },
        datasetName: { type: 'string', description: 'The dataset id on the service, for example demo-qa.' },
        startAnother: {
          type: 'boolean',
          description:
            'true starts a second evaluation even while one of this model on this dataset is running (each is paid for). Leave it out unless the person asked for another run.',
        },
      },
      required: ['modelName', 'datasetName'],
      additionalProperties: false,
    },
  },
  [LM_TOOLS.getEvaluationReport]: {
    description:
      "Reads the evaluation report of a model from the evaluations finished here: per dataset, its accuracy and its base model's, each with a 95% interval, the difference with its interval and a verdict in words (better, worse, or no clear difference at this sample size), and the model's lineage (base model, files, questions). Use it after an evaluation completed to say whether tuning helped. Returns a few lines per dataset.",
    inputSchema: {
      type: 'object',
      properties: { modelName: { type: 'string', description: 'The model whose report to read.' } },
      required: ['modelName'],
      additionalProperties: false,
    },
  },
  [LM_TOOLS.downloadModel]: {
    description:
      "Downloads a tuned model's artifact (a GGUF file) into the person's download folder setting, resuming a download that stopped and verifying the file. It refuses, and says so, when no download folder is set: it never chooses where files go. Use it when the person wants a tuned model on their computer, for example to run it locally. The person confirms it. Returns the file's path and size when done.",
    inputSchema: {
      type: 'object',
      properties: { modelName: { type: 'string', description: 'The tuned model to download, a name from hosted_list_models.' } },
      required: ['modelName'],
      additionalProperties: false,
    },
  },
  [LM_TOOLS.askModel]: {
    description:
      "Asks a hosted base model or a tuned model one question and returns its answer as plain text (its reasoning left out unless includeReasoning is true). Use it to consult a model tuned on the person's documents, or to try a model before or after tuning. Optional: useRag to answer from the service's retrieval, sequentialBudget and parallelBudget for how much the model may think, temperature. Returns the answer.",
    inputSchema: {
      type: 'object',
      properties: {
        modelName: { type: 'string', description: 'The model to ask, a name from hosted_list_models.' },
        prompt: { type: 'string', description: 'The question, with any context it needs.' },
        useRag: { type: 'boolean', description: "Answer with the service's retrieval (default: the person's setting)." },
        sequentialBudget: { type: 'integer', minimum: 1, description: "Sequential reasoning budget (default: the person's setting)." },
        parallelBudget: { type: 'integer', minimum: 1, description: "Parallel reasoning budget (default: the person's setting)." },
        temperature: { type: 'number', minimum: 0, description: "Sampling temperature (default: the person's setting)." },
        includeReasoning: { type: 'boolean', description: "Also return the model's reasoning (default false: it can be long)." },
      },
      required: ['modelName', 'prompt'],
      additionalProperties: false,
    },
  },
  [LM_TOOLS.compareModels]: {
    description:
      "Compares two or more models question by question on a question set in the workspace (a .jsonl, .csv or .md table file with a question column and, optionally, an expected column): every question goes to every model, answers are scored by normalized or exact match against the expected answers, by a judge model, or (without expected answers) by a pairwise judge asked in both orders. Use it when the person asks whether a tuned model does better than its base on their own questions: put the tuned model first, then its base (see hosted_list_models). It sends one request per question and model (plus the judge's) and the person confirms the count. Returns each model's accuracy with its 95% interval, the buckets (fixed, regressed, both right, both wrong; or wins, losses, ties), the exact McNemar (or sign) test in words, and the questions where the models differ.",
    inputSchema: {
      type: 'object',
      properties: {
        file: { type: 'string', description: 'The question set: a path relative to the workspace folder (or absolute inside it).' },
        models: {
          type: 'array',
          items: { type: 'string' },
          minItems: 2,
          description: 'Two or more model names; the first is compared with each other one (the tuned model first, then its base).',
        },
        scoring: {
          type: 'string',
          enum: ['normalized', 'exact', 'judge', 'pairwise'],
          description: 'How answers are scored (default: normalized match when the set has expected answers, else pairwise).',
        },
        judgeModel: { type: 'string', description: 'The model that judges, for judge and pairwise scoring.' },
      },
      required: ['file', 'models'],
      additionalProperties: false,
    },
  },
};
