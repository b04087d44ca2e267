import * as z from 'zod/mini';

/*
 * The web server's log (pino, through Fastify) writes one JSON object per line. The panel's
 * terminal is read by people, beside the start-up lines printed as plain text, so each object is
 * turned into one readable line (warnings and errors on stderr) before it is written.
 */

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warning', 50: 'error', 60: 'fatal' };

const entry = z.object({
  level: z.number(),
  msg: z.optional(z.string()),
  reqId: z.optional(z.union([z.string(), z.number()])),
  req: z.optional(z.object({ method: z.optional(z.string()), url: z.optional(z.string()), remoteAddress: z.optional(z.string()) })),
  res: z.optional(z.object({ statusCode: z.optional(z.number()) })),
  responseTime: z.optional(z.number()),
  err: z.optional(z.object({ message: z.optional(z.string()), stack: z.optional(z.string()) })),
});

/** One pino JSON line as text: `warning: message`, with the request and the error when there are any. */
export function readableLogLine(line: string): string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return line.trimEnd();
  }
  const parsed = entry.safeParse(value);
  if (!parsed.success) return line.trimEnd();
  const { level, msg = '', reqId, req, res, responseTime, err } = parsed.data;
  const parts = [`${LEVELS[level] ?? `level ${level}`}: ${msg}`];
  if (req?.method) parts.push(`${req.method} ${req.url ?? ''}${req.remoteAddress ? ` from ${req.remoteAddress}` : ''}`);
  if (res?.statusCode !== undefined) parts.push(`${res.statusCode}${responseTime === undefined ? '' : ` in ${responseTime.toFixed(1)} ms`}`);
  if (reqId !== undefined) parts.push(`(${reqId})`);
  let text = parts.join(' ');
  if (err?.message && !msg.includes(err.message)) text += `: ${err.message}`;
  if (err?.stack && level >= 50) text += `\n${err.stack}`;
  return text;
}

/** A pino destination printing readable lines: warnings and worse to stderr, the rest to stdout. */
export const readableLogStream = {
  write(chunk: string): void {
    for (const line of chunk.split('\n')) {
      if (line.trim() === '') continue;
      const text = `${readableLogLine(line)}\n`;
      const level = /"level":(\d+)/.exec(line)?.[1];
      if (level !== undefined && Number(level) >= 40) process.stderr.write(text);
      else process.stdout.write(text);
    }
  },
};
