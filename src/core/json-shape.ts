/** Narrowing for parsed JSON/YAML whose shape nobody promised (transcripts, settings, checkpoints, hook input). */

/** A plain object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as a plain object, or undefined when it is anything else. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) ? value : undefined;
}
