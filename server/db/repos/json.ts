import * as z from 'zod/mini';

/**
 * Reads a JSON column with its schema, once, in the repository that owns it: callers get typed
 * values and never cast. A value that does not parse (hand-edited, or written by an older
 * version) is logged by the caller's error path as the fallback, never trusted.
 */
export function parseJsonColumn<S extends z.ZodMiniType>(text: string, schema: S, fallback: z.output<S>): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fallback;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : fallback;
}

export const stringArray = z.array(z.string());
export const stringRecord = z.record(z.string(), z.string());
export const jsonObject = z.record(z.string(), z.unknown());
