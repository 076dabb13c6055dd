// The language-model tools, one per name of LM_TOOLS (src/contributions.ts), built by the main module; the entry
// module registers each name once with vscode.lm.registerTool and forwards to the tool of that name here.
import type { Services } from '../../services';
import { LM_TOOLS } from '../../contributions';
import type { EditorJobPoller as JobPoller } from '../../jobs/editorJobPoller';
import type { ModelsTreeProvider } from '../models/modelsTree';
import { askModelTool } from './askModel';
import { compareModelsTool } from './compareModels';
import { downloadModelTool } from './downloadModel';
import { getEvaluationReportTool } from './getEvaluationReport';
import { getJobTool } from './getJob';
import { listJobsTool } from './listJobs';
import { listModelsTool } from './listModels';
import { startEvaluationTool } from './startEvaluation';
import { startFinetuneTool } from './startFinetune';
import type { ToolTable } from './toolShared';

export function languageModelTools(services: Services, models: ModelsTreeProvider, poller: JobPoller): ToolTable {
  return {
    [LM_TOOLS.listModels]: listModelsTool(services),
    [LM_TOOLS.listJobs]: listJobsTool(services),
    [LM_TOOLS.getJob]: getJobTool(services, poller),
    [LM_TOOLS.startFinetune]: startFinetuneTool(services),
    [LM_TOOLS.startEvaluation]: startEvaluationTool(services),
    [LM_TOOLS.getEvaluationReport]: getEvaluationReportTool(services, models),
    [LM_TOOLS.downloadModel]: downloadModelTool(services),
    [LM_TOOLS.askModel]: askModelTool(services),
    [LM_TOOLS.compareModels]: compareModelsTool(services),
  };
}
