import { DaemonError } from '../types';
import { wingsSystemSchema } from './responses';
import { WingsTransport } from './transport';

/*
 * `GET /api/system`: what a node is and whether it answers at all (the node list's health).
 */

export type NodeHealth = { reachable: true; version: string } | { reachable: false; reason: string };

export async function systemHealth(http: WingsTransport, timeoutMs = 3000): Promise<NodeHealth> {
  try {
    const system = await http.json({ method: 'GET', path: '/api/system', timeoutMs }, wingsSystemSchema);
    return { reachable: true, version: system.version };
  } catch (error) {
    return { reachable: false, reason: error instanceof DaemonError ? error.message : String(error) };
  }
}

export function nodeHealth(baseUrl: string, token: string, timeoutMs = 3000): Promise<NodeHealth> {
  return systemHealth(new WingsTransport({ name: new URL(baseUrl).host, baseUrl, token: () => token, connectTimeoutMs: timeoutMs }), timeoutMs);
}
