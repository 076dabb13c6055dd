// The help text: what `hosted-reasoning --help` and `hosted-reasoning help <command>` print.
export const USAGE = `hosted-reasoning: the hosted reasoning and finetuning service from the command line.

Usage: hosted-reasoning <command> [options]

Commands:
  models                                 The models your key may use.
  ask <model> [prompt|-]                 Ask a model; the answer streams to stdout (--reasoning: reasoning on stderr).
  finetune <files…> --base <model> --name <name> [--questions <n>] [--use-case <text>] [--mode <mode>] [--wait] [--yes]
                                         Check and read the PDF/DOCX files, then start a (paid) finetuning job.
  status <job> [--wait]                  A job's state; --wait follows it until it ends.
  evaluate <model> <dataset> [--wait] [--again]
                                         Start an evaluation of a model on a dataset (--again: even while one runs).
  report <model> [--dataset <name>] [--base <model>] [--require-better]
                                         The model against its base, with 95% intervals.
  download <model> [--out <folder>] [--overwrite]
                                         Download a model's file (resumed, verified).
  profile [--profile <file> [--keep]]    How this service's answers are read.
  mcp [--root <folder>]… [--download-folder <folder>]
                                         Serve the tools over MCP (stdio); files are read in the client's roots (else
                                         the --root folders), downloads go to the folder given.

Options for every command:
  --json              One JSON document on stdout (progress and notes stay on stderr).
  --key-file <path>   Read the API key from this file instead of HOSTED_REASONING_API_KEY.
  --profile <file>    Read the service's answers by this service profile.
  --interval <s>      Seconds between status checks with --wait (default 5).
  --verbose           Also print the client's log (retries, waits) on stderr.

Environment:
  HOSTED_REASONING_BASE_URL   The service's URL (https://…; http only for localhost).
  HOSTED_REASONING_API_KEY    Your API key (sent only to that URL's origin).
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   The proxy to go through, and the hosts reached directly.

Exit codes: 0 done, 1 failed (a job failed, --require-better not met, the service failed), 2 bad input,
3 key refused or missing, 4 service unreachable, 130 interrupted.
`;
