// A list of settings written for people ("`pollIntervalSeconds`, `finetune.*` and `local.threads`") read back as the
// settings it names, so a test can hold it equal to the manifest's own list: the README and VS Code's trust text say
// which settings Restricted Mode ignores, and package.json lists them in restrictedConfigurations.
const PREFIX = 'hostedReasoning.';

/**
 * The settings named by `list` (items split at commas and "and", backticks dropped, `hostedReasoning.` optional),
 * `x.*` standing for every setting under `x`; among `all`, the manifest's settings. A name that is no setting is kept
 * as written, so the comparison shows it.
 */
export function settingsNamedIn(list: string, all: readonly string[]): string[] {
  const names = list
    .split(/,\s*|\s+and\s+/)
    .map((item) => item.replace(/`/g, '').trim())
    .filter((item) => item !== '')
    .map((item) => (item.startsWith(PREFIX) ? item : PREFIX + item));
  return names.flatMap((name) => (name.endsWith('.*') ? all.filter((s) => s.startsWith(name.slice(0, -1))) : [name]));
}

/** The list of the sentence "… own values of <list> are ignored …" in `text`, or undefined. */
export function ignoredInRestrictedMode(text: string): string | undefined {
  return /own values of ([\s\S]+?) are ignored/.exec(text)?.[1];
}
