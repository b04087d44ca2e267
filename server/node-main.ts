import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { loadNodeConfig, NodeConfigError } from './node/config';
import { buildNode, panelSftpAuthenticator } from './node/node-app';
import { onShutdownSignal } from './lib/shutdown';

/*
 * `npm run -s node -- --config <config.yml>`: Aerie's node as a process of its own, serving Wings'
 * API to the panel named in the file (README "Aerie's node on another machine").
 */

const ACTIVITY_FLUSH_MS = 5_000;

const log = (message: string, error?: unknown) =>
  console.warn(error === undefined || error === '' ? message : `${message}: ${error instanceof Error ? error.message : String(error)}`);

async function start(): Promise<void> {
  let file: string | undefined;
  try {
    file = parseArgs({ options: { config: { type: 'string' } } }).values.config;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (!file) fail('Usage: npm run -s node -- --config <config.yml>');
  let config;
  let sandbox;
  try {
    config = loadNodeConfig(file);
    sandbox = loadConfig(process.env);
  } catch (error) {
    fail(error instanceof NodeConfigError || error instanceof Error ? error.message.split('\n').join(' ') : String(error));
  }
  const node = await buildNode(config, sandbox, log);
  node.daemon.sweepLeftovers();
  const running: { stopSftp?: () => Promise<void> } = {};
  onShutdownSignal(
    (signal) => `${signal} received: stopping servers and sending activity...`,
    async () => {
      await running.stopSftp?.();
      await node.runtime.shutdown();
      await node.app.close();
    },
  );

  const count = await node.runtime.boot();
  console.log(`The panel at ${config.remote} gives this node ${count} server(s).`);
  node.runtime.activity.start(ACTIVITY_FLUSH_MS);
  // What ran at the last shutdown starts again, as on the panel's own node (PANEL_RESTART_RUNNING_SERVERS).
  const resumed = await node.daemon.process.resume(sandbox.restartRunningServers);
  if (resumed.length > 0) console.log(`Started again ${resumed.length} server(s) that were running when the node stopped.`);
  await node.app.listen({ host: config.host, port: config.port });
  const address = node.app.server.address();
  console.log(
    `Aerie's node ${config.uuid} listening on ${typeof address === 'object' && address ? `${address.address}:${address.port}` : config.port}`,
  );
  const sftp = await node.daemon.startSftp({ ...panelSftpAuthenticator(node.runtime.client), port: config.sftpPort, host: config.host });
  running.stopSftp = sftp.close;
  console.log(`SFTP listening on port ${sftp.port}`);
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

start().catch((error: unknown) => {
  console.error(`Aerie's node could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
