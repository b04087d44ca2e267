/** The JSON value of `text`, or undefined when it is missing or not JSON (the caller's schema then refuses it). */
export function parseJsonOrUndefined(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
