import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_ALLOCATION_PORTS } from '../config';
import { finishTransfer, lastTransfer, startTransfer, type TransferDeps } from '../services/server-transfers';
import { CliError, int, required, type Command } from './options';
import { serverById } from './servers';

/*
 * `server:transfer --server ID --node N`: moves a server to another node and waits for the end,
 * telling stderr how it goes. The running panel's node sends it (the CLI hands the call over), and
 * the target's report ends it in the panel; the CLI reads the outcome from the database. It needs
 * the panel running. A failed
 * transfer, or one that outlives `--timeout` (seconds, 30 min by default), leaves the server where
 * it was.
 */

const DEFAULT_TIMEOUT_S = 30 * 60;
const POLL_MS = 500;
const PROGRESS_EVERY_MS = 10_000;

export const TRANSFER_COMMANDS: Record<string, Command> = {
  'server:transfer': {
    options: { server: { type: 'string' }, node: { type: 'string' }, timeout: { type: 'string' } },
    async run(opts, deps) {
      const { db, nodes, clock } = deps;
      const server = await serverById(db, required(opts, 'server'));
      const target = required(opts, 'node');
      const timeoutS = int(opts, 'timeout') ?? DEFAULT_TIMEOUT_S;
      if (timeoutS < 1) throw new CliError('--timeout must be at least 1 (seconds).', 2);
      const say = (line: string) => process.stderr.write(`${line}\n`);
      const transferDeps: TransferDeps = {
        db,
        daemons: nodes,
        clock,
        panelOrigin: deps.publicUrl ?? 'http://localhost',
        defaultPorts: deps.ports ?? DEFAULT_ALLOCATION_PORTS,
        warn: say,
      };
      // The nodes report the end to the panel's remote API: with no panel to hear it, a transfer
      // could only time out, and leave a copy on the target that nobody removes.
      if (deps.panelRunning && !(await deps.panelRunning())) {
        throw new CliError(
          'server:transfer needs the panel running: the nodes report the end of a transfer to it. Start it (npm start), then run this again.',
        );
      }
      const started = await startTransfer(transferDeps, server.id, target);
      say(`Transferring ${server.uuid_short} to ${target}…`);
      const begun = Date.now();
      let told = begun;
      for (;;) {
        const row = await lastTransfer(db, started.id);
        if (row && row.successful !== null) {
          if (row.successful === 1) return { transferred: true, node: target };
          throw new CliError(`The transfer failed: ${row.reason ?? 'no reason was given'}. The server stays where it was.`);
        }
        if (Date.now() - begun > timeoutS * 1000) {
          await finishTransfer(transferDeps, server.id, false, `it did not end within ${timeoutS} s`);
          throw new CliError(`The transfer did not end within ${timeoutS} s and was given up. The server stays where it was.`);
        }
        if (Date.now() - told >= PROGRESS_EVERY_MS) {
          told = Date.now();
          say(`…still transferring (${Math.round((told - begun) / 1000)} s)`);
        }
        await sleep(POLL_MS);
      }
    },
  },
};
