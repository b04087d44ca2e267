import * as z from 'zod/mini';

/*
 * The first call of the panel's Wings client (issue 24 §2): `GET /api/system`, what a node is and
 * whether it answers at all. Wings authenticates the panel with `Bearer <token>` (the token alone).
 */

const systemSchema = z.object({
  version: z.string(),
  os: z.optional(z.string()),
  architecture: z.optional(z.string()),
  cpu_count: z.optional(z.number()),
});

export type NodeHealth = { reachable: true; version: string } | { reachable: false; reason: string };

export async function nodeHealth(baseUrl: string, token: string, timeoutMs = 3000): Promise<NodeHealth> {
  try {
    const res = await fetch(new URL('/api/system', baseUrl), {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    if (res.status === 401 || res.status === 403) return { reachable: false, reason: `it refused the panel's token (HTTP ${res.status})` };
    if (!res.ok) return { reachable: false, reason: `HTTP ${res.status}` };
    const parsed = systemSchema.safeParse(await res.json());
    return parsed.success ? { reachable: true, version: parsed.data.version } : { reachable: false, reason: 'it does not answer as Wings does' };
  } catch (error) {
    const cause =
      error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    return { reachable: false, reason: cause };
  }
}
