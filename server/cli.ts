import { loadConfig, panelOrigin } from './config';
import { databaseFile, migrateToLatest, openDatabase, type Db } from './db';
import { prepareDataDir } from './lib/data-dir';
import { loadSecretBox } from './lib/secret-box';
import { systemClock } from './lib/time';
import { CliError, USAGE, runCli, textOf, usageOf } from './cli/commands';
import { listenHost } from './services/first-start';
import { localDaemon } from './services/local-node';
import { nodeDaemons } from './services/node-daemons';
import { controlSocketPath, panelListening, viaRunningPanel } from './services/panel-control';
import { sealPlaintextTotpSecrets } from './services/totp';

/**
 * The admin CLI: `npm run -s panel -- <command> [options]`. Works on the same data dir as
 * `npm start` (PANEL_DATA_DIR), migrating it first. On success the last stdout line is one JSON
 * object (a list command prints a table instead, unless given --json) and the exit code is 0; on
 * failure one clear message goes to stderr and the code is not 0. What must happen inside a running
 * panel (stopping a server it runs, revoking console tokens) is handed to it (`panel-control.ts`).
 */
async function main(argv: string[]): Promise<number> {
  // Help asked for goes to standard output with success; a bare call is a usage error.
  if (argv.length === 0) {
    console.error(USAGE);
    return 2;
  }
  const [command = '', ...rest] = argv;
  if (['help', '--help', '-h'].includes(command)) {
    const one = rest[0] === undefined ? null : usageOf(rest[0]);
    process.stdout.write(`${one ?? USAGE}\n`);
    return 0;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    const one = usageOf(command);
    if (one) process.stdout.write(`${one}\n`);
    else console.error(`Unknown command ${command}.\n\n${USAGE}`);
    return one ? 0 : 2;
  }
  let db: Db | undefined;
  try {
    const config = loadConfig();
    prepareDataDir(config.dataDir, databaseFile(config.dataDir));
    db = openDatabase(databaseFile(config.dataDir));
    await migrateToLatest(db);
    const box = loadSecretBox(config.dataDir);
    await sealPlaintextTotpSecrets(db, box);
    const daemon = localDaemon(db, {
      dataDir: config.dataDir,
      clock: systemClock,
      maxUploadBytes: config.maxUploadBytes,
      maxEntriesPerServer: config.maxEntriesPerServer,
    });
    // Argon2 only when the answer depends on it: no APP_URL, no HOST.
    const publicUrl = panelOrigin(config.appUrl ? config : { ...config, host: await listenHost(db, config) });
    const socketPath = controlSocketPath(config.dataDir);
    const nodes = nodeDaemons(viaRunningPanel(daemon, socketPath), box);
    const panelRunning = () => panelListening(socketPath);
    const result = await runCli(argv, { db, nodes, clock: systemClock, box, ports: config.allocationPorts, publicUrl, panelRunning });
    process.stdout.write(`${textOf(result) ?? JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      console.error(error.message);
      return error.exitCode;
    }
    // Service errors (HttpError and friends) carry a user-facing message already.
    console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await db?.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));
