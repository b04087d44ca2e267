import { findProgram } from '../daemon/local/sandbox';
import type { Egg } from '../db/repos/eggs';
import type { NodeRow, ServerRow } from '../db/schema';
import type { Server } from '../../src/contract/servers';

/*
 * What a server on the panel's own node really runs with. That node runs the startup command in
 * a bubblewrap sandbox over the host's /usr (sandbox.ts), not in the egg's container image, so the
 * image a page shows says nothing about the runtime; the program on the host's PATH does.
 */

/** Host lookups are cheap but happen for every server in a list: remembered for a while. */
const LOOKUP_TTL_MS = 30_000;
const found = new Map<string, { path: string | null; at: number }>();

function hostProgram(name: string, now: number): string | null {
  const known = found.get(name);
  if (known && now - known.at < LOOKUP_TTL_MS) return known.path;
  // A name with a slash is a path in the volume (`./start.sh`), not a host program to look for.
  const located = name.includes('/') ? null : findProgram(name);
  found.set(name, { path: located, at: now });
  return located;
}

/** Undefined for a remote node (Wings runs images) or a startup command without a program. */
export function serverRuntime(
  server: Pick<ServerRow, 'startup'>,
  node: Pick<NodeRow, 'daemon_base_url'> | undefined,
  egg: Pick<Egg, 'script_install'> | undefined,
  now = Date.now(),
): Server['aerie_runtime'] {
  if (!node || node.daemon_base_url !== null) return undefined;
  const program = server.startup.trim().split(/\s+/)[0];
  if (!program) return undefined;
  return {
    program,
    program_path: program.includes('/') ? program : hostProgram(program, now),
    installs_files: Boolean(egg?.script_install?.trim()),
  };
}
