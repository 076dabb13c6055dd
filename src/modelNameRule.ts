// What can be a model name a person typed, or one kept for them: one rule for every picker and for the store of known
// names (connection/knownModelNames.ts). No vscode here: the store is tested under plain mocha.

/** The name typed, trimmed; undefined when it cannot be a name (empty, over 256 characters, control characters). */
export function typedModelName(value: string): string | undefined {
  const name = value.trim();
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  return name && name.length <= 256 && !/[\u0000-\u001f\u007f-\u009f]/.test(name) ? name : undefined;
}
