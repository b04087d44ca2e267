/*
 * List commands print a table for people and, with --json, one JSON object for scripts. The table
 * rides on the result as a property JSON.stringify and test equality never see.
 */

const TEXT = Symbol('cli text');

/** `result` carrying `text` to print instead of its JSON (none: the JSON is printed). */
export function withText<T extends object>(result: T, text: string | undefined): T {
  if (text !== undefined) Object.defineProperty(result, TEXT, { value: text, enumerable: false });
  return result;
}

export function textOf(result: object): string | undefined {
  const text: unknown = Reflect.get(result, TEXT);
  return typeof text === 'string' ? text : undefined;
}

/** Columns padded to their widest cell, a rule under the header; `empty` when there are no rows. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[], empty: string): string {
  if (rows.length === 0) return empty;
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
