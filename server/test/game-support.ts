import fs from 'node:fs';
import path from 'node:path';
import { DEMO_GAME_PROGRAM } from '../services/servers';
import type { TestPanel } from './harness';

/*
 * A server running the demo game (the program the demo egg ships), for the tests of the console:
 * its owner, the server, and a way to wait for what the console shows.
 */

export async function makeGame(panel: TestPanel) {
  const owner = await panel.user();
  const server = await panel.server(owner);
  // The demo game, copied into the volume, as the server's startup.
  await panel.db.updateTable('servers').set({ startup: 'node game.mjs' }).where('id', '=', server.id).execute();
  await panel.reconfigure(server);
  fs.copyFileSync(DEMO_GAME_PROGRAM, path.join(panel.daemon.volumePath(server.uuid), 'game.mjs'));
  const history = () => panel.daemon.process.history(server.uuid, 150);
  const events = async () => (await panel.db.selectFrom('activity_logs').select(['event', 'properties']).orderBy('id').execute()).map((r) => r.event);
  return { owner, server, history, events };
}

/** Resolves once `check` holds, polling; fails after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
