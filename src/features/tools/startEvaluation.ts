// hosted_start_evaluation: measures a model on a dataset of the service (spec 4.5), through the command's own start
// (submitEvaluation: the job record written at once, the dataset remembered). It returns the job id at once; the
// result is read with hosted_get_job, the comparison with hosted_get_evaluation_report. It spends compute, so the
// confirmation names the model and the dataset.
import * as vscode from 'vscode';
import type { Services } from '../../services';
import { keepUnreadableStart } from '../../jobs/unreadableStarts';
import { evaluationStartRecord, submitEvaluation } from '../evaluate/evaluateCommand';
import { StartRefusedError } from '../../jobs/startingJobs';
import {
  abortOn,
  fields,
  mayHaveStartedLines,
  optionalBoolean,
  requiredString,
  runTool,
  said,
  serviceDataLine,
  SERVICE_WORDS,
  textResult,
} from './toolShared';
import { startRefusedLines } from './toolText';

export function startEvaluationTool(services: Services): vscode.LanguageModelTool<unknown> {
  const request = (input: unknown) => {
    const f = fields(input);
    return {
      modelName: requiredString(f, 'modelName'),
      datasetName: requiredString(f, 'datasetName'),
      startAnother: optionalBoolean(f, 'startAnother') ?? false,
    };
  };
  return {
    prepareInvocation: (options) => {
      let r: { modelName: string; datasetName: string; startAnother: boolean };
      try {
        r = request(options.input);
      } catch {
        return { invocationMessage: vscode.l10n.t('Checking the evaluation request') };
      }
      const model = said(r.modelName, 80);
      const dataset = said(r.datasetName, 80);
      return {
        invocationMessage: vscode.l10n.t('Starting the evaluation of {0} on {1}', model, dataset),
        confirmationMessages: {
          title: vscode.l10n.t('Evaluate {0}?', model),
          // A second run is the agent's claim that the person asked for one: the confirmation says so, to be caught.
          message: r.startAnother
            ? vscode.l10n.t(
                'Starts another evaluation of the model {0} on the dataset {1} on the service, even while one is running, which spends compute on your account again.',
                model,
                dataset,
              )
            : vscode.l10n.t(
                'Starts an evaluation of the model {0} on the dataset {1} on the service, which spends compute on your account.',
                model,
                dataset,
              ),
        },
      };
    },
    invoke: (options, token) =>
      runTool('Starting the evaluation', async () => {
        const r = request(options.input);
        const cancel = abortOn(token);
        const connection = await services.session.connect();
        try {
          const jobId = await submitEvaluation(services, connection, r.modelName, r.datasetName, {
            signal: cancel.signal,
            startAnother: r.startAnother,
          });
          return textResult([
            `Started: job ${said(jobId, 100)} evaluates ${said(r.modelName)} on ${said(r.datasetName, 100)}.`,
            `Poll with hosted_get_job (jobId ${said(jobId, 100)}); once it completed, hosted_get_evaluation_report (modelName ${said(r.modelName)}) compares it with its base.`,
            serviceDataLine(SERVICE_WORDS.started),
          ]);
        } catch (error) {
          // The same evaluation runs, or is being started: nothing was sent; the agent is told how to follow it.
          if (error instanceof StartRefusedError) return textResult(startRefusedLines(error));
          const job = evaluationStartRecord(connection.scope, r.modelName, r.datasetName, Date.now());
          if (await keepUnreadableStart(services, error, { kind: 'evaluation', scope: connection.scope, job })) {
            return textResult(mayHaveStartedLines('Starting the evaluation'));
          }
          throw error;
        } finally {
          cancel.dispose();
        }
      }),
  };
}
