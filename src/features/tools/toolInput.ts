// The checks of a tool's input, for both faces (the language-model tools and the MCP server): neither VS Code nor the
// MCP SDK checks an input against the tool's schema, and a caller can pass anything. A problem names the field and what
// is expected, said to the model as it is. No vscode.

/** A problem with a tool's input, said to the model as it is (it names the field and what is expected). */
export class ToolInputProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputProblem';
  }
}

/** The input as an object of fields. */
export function fields(input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ToolInputProblem('The input must be an object.');
  return input as Record<string, unknown>;
}

export function requiredString(input: Record<string, unknown>, name: string): string {
  const v = input[name];
  if (typeof v !== 'string' || !v.trim()) throw new ToolInputProblem(`"${name}" is required: a non-empty string.`);
  return v.trim();
}

export function optionalString(input: Record<string, unknown>, name: string): string | undefined {
  const v = input[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ToolInputProblem(`"${name}" must be a string.`);
  return v.trim() || undefined;
}

export function optionalBoolean(input: Record<string, unknown>, name: string): boolean | undefined {
  const v = input[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new ToolInputProblem(`"${name}" must be true or false.`);
  return v;
}

export function optionalInteger(input: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const v = input[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new ToolInputProblem(`"${name}" must be a whole number from ${min} to ${max}.`);
  }
  return v;
}
