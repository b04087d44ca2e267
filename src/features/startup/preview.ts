/**
 * The startup command as it will run with `values` (env name → value) for the variables the page
 * edits. Placeholders the page does not know (memory, address, variables hidden from users) take
 * what the panel filled into `filled`, found by matching the raw command's literal text against it.
 */
export function previewCommand(raw: string, filled: string, values: Record<string, string>): string {
  // Odd entries are placeholder names, even ones the literal text between them.
  const parts = raw.split(/\{\{([^{}]*)\}\}/);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^${parts.map((p, i) => (i % 2 ? '([\\s\\S]*?)' : escape(p))).join('')}$`).exec(filled);
  return parts.map((p, i) => (i % 2 === 0 ? p : (values[p] ?? match?.[(i + 1) / 2] ?? `{{${p}}}`))).join('');
}
