import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { loadConfig, panelOrigin } from './config';
import { databaseFile, migrateToLatest, openDatabase, type Db } from './db';
import { REPO_ROOT, ensureSpaBuilt } from './lib/spa-build';
import { LOW_DESCRIPTOR_LIMIT, raiseDescriptorLimit } from './lib/descriptor-limit';
import { systemClock } from './lib/time';
import { prepareDataDir } from './lib/data-dir';
import { loadSecretBox } from './lib/secret-box';
import { startActivityPruning } from './services/activity-retention';
import { failInterruptedBackupWork } from './services/backups';
import { failLocalTransfersCutOff } from './services/node-reset';
import type { DemoSummary } from './services/demo';
import { ADD_SERVER_HINT, ADD_USER_HINT, firstStart, type FirstStart } from './services/first-start';
import { servers as serverRepo } from './db/repos';
import { networkWarning } from './daemon/local/network';
import { findBwrap, MISSING_BWRAP } from './daemon/local/sandbox';
import { canLimitServers, cgroupRoots, describeCgroupRoots, NO_LIMITS, RUNNING_UNLIMITED } from './daemon/local/cgroup-roots';
import { localDaemon, recordLocalSftp, sandboxOptions } from './services/local-node';
import { repairMarkedHosts } from './services/database-grants';
import { setUpDatabaseHosts } from './services/managed-mariadb';
import { interruptedInstalls, resumeInstalls } from './services/servers';
import { nodeDaemons } from './services/node-daemons';
import { controlSocketPath, listenForCli } from './services/panel-control';
import { sftpAuthenticator } from './services/sftp-auth';
import { sealPlaintextTotpSecrets } from './services/totp';
import { sealPlaintextNodeTokens } from './services/node-credentials';
import { onShutdownSignal } from './lib/shutdown';

/** `npm start`: config → data dir → database → migrate → demo data → SPA build → listen. */

/** Says once what holds servers to their limits (finding it out delegates the panel's v2 group): loudly when nothing does. */
function reportServerLimits(allowUnlimited: boolean): void {
  const roots = cgroupRoots();
  if (canLimitServers(roots)) console.log(`Server limits from cgroups: ${describeCgroupRoots(roots)}`);
  else console.warn(`WARNING: ${allowUnlimited ? RUNNING_UNLIMITED : NO_LIMITS}`);
}

function printDemoBox(url: string, summary: DemoSummary): void {
  const lines = [
    'Demo data created. Sign in at:',
    `  ${url}`,
    '',
    ...summary.accounts.flatMap((a) => [
      `${a.role === 'admin' ? 'Administrator' : 'Regular user'}:`,
      `  email     ${a.email}   (or username ${a.username})`,
      `  password  ${a.password}`,
    ]),
    '',
    'These are demo accounts with published passwords:',
    'do not expose this panel to the internet as it is.',
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const bar = `+${'-'.repeat(width + 2)}+`;
  console.log([bar, ...lines.map((l) => `| ${l.padEnd(width)} |`), bar].join('\n'));
}

/** The root admin of a first start: its password is shown here once and stored only as a hash. */
function printAdminBox(url: string, admin: NonNullable<FirstStart['admin']>): void {
  const lines = [
    `Root admin created. Sign in at ${url} with:`,
    `  username  ${admin.username}   (e-mail ${admin.email})`,
    `  password  ${admin.password}`,
    '',
    'This password is shown only now. Change it with:',
    `  npm run -s panel -- user:password --email ${admin.email}   (reads it from standard input)`,
    '',
    'The panel has no servers yet. Add a user and give them a server with:',
    `  ${ADD_USER_HINT}`,
    `  ${ADD_SERVER_HINT}`,
    '(npm run -s panel -- help lists every command.)',
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const bar = `+${'-'.repeat(width + 2)}+`;
  console.log([bar, ...lines.map((l) => `| ${l.padEnd(width)} |`), bar].join('\n'));
}

/** The open-file limit, raised as far as allowed; said in one line only when unknown or low. */
function descriptorLimit(): number | undefined {
  const limit = raiseDescriptorLimit();
  if (!limit) console.warn('Could not read or raise the open-file limit (prlimit): connection caps assume 65536 descriptors.');
  else if (limit.soft < LOW_DESCRIPTOR_LIMIT) {
    console.warn(
      `The open-file limit is ${limit.soft} (hard ${limit.hard}): the default connection caps are lowered to fit; raise it (LimitNOFILE=, ulimit -Hn).`,
    );
  }
  return limit?.soft;
}

async function start(): Promise<void> {
  const config = loadConfig(process.env, descriptorLimit());
  prepareDataDir(config.dataDir, databaseFile(config.dataDir));
  const db: Db = openDatabase(databaseFile(config.dataDir));
  // Filled in once listening; a signal before then still closes the database.
  const running: {
    app?: FastifyInstance;
    stopSftp?: () => Promise<void>;
    stopPruning?: () => void;
    stopServers?: () => Promise<void>;
    stopMariadb?: () => Promise<void>;
    stopControl?: () => Promise<void>;
  } = {};
  onShutdownSignal(
    (signal) => `\n${signal} received, shutting down...`,
    async () => {
      running.stopPruning?.();
      await running.stopControl?.();
      await running.stopSftp?.();
      // Every server's process is stopped cleanly (its stop command, then a kill past the timeout).
      await running.stopServers?.();
      await running.app?.close();
      await running.stopMariadb?.();
      await db.destroy();
    },
  );

  await migrateToLatest(db);
  const box = loadSecretBox(config.dataDir);
  await sealPlaintextTotpSecrets(db, box);
  await sealPlaintextNodeTokens(db, box);
  running.stopPruning = await startActivityPruning({
    db,
    clock: systemClock,
    retentionDays: config.activityRetentionDays,
    warn: (message) => console.warn(message),
  });
  const daemon = localDaemon(db, {
    dataDir: config.dataDir,
    clock: systemClock,
    maxUploadBytes: config.maxUploadBytes,
    ...sandboxOptions(config),
  });
  // This process serves the node: what a crash left in its volumes goes (never from the CLI).
  daemon.sweepLeftovers();
  running.stopServers = async () => {
    const count = daemon.process.runningCount;
    if (count > 0)
      console.log(
        `Stopping ${count} running server(s) with their stop commands; any still running after ${config.serverStopTimeoutSeconds} s is killed.`,
      );
    await daemon.process.stopAll();
  };
  if (!findBwrap()) console.warn(MISSING_BWRAP);
  reportServerLimits(config.allowUnlimitedServers);
  const network = networkWarning(config.allowHostNetwork);
  if (network) console.warn(network);
  const nodes = nodeDaemons(daemon, box, daemon, (message) => console.warn(message));
  // Backups, restores and transfers the last run left unfinished were cut off: they are recorded as failed.
  const cutOff = await failInterruptedBackupWork(db, systemClock.now());
  const transfers = await failLocalTransfersCutOff({ db, daemons: nodes, clock: systemClock, warn: (message) => console.warn(message) });
  if (cutOff.backups + cutOff.restores + transfers > 0) {
    console.warn(
      `Marked failed what the last run left unfinished: ${cutOff.backups} backup(s), ${cutOff.restores} restore(s), ${transfers} transfer(s).`,
    );
  }
  // Found before the demo data (which shows a server installing) is seeded.
  const interrupted = await interruptedInstalls(db);
  const first = await firstStart(db, nodes, config, systemClock.now());
  // A database host that cannot be set up leaves the panel without databases, not without a panel.
  try {
    const hosts = await setUpDatabaseHosts(db, box, config, systemClock.now());
    running.stopMariadb = hosts.managed?.stop;
    console.log(hosts.message);
  } catch (error) {
    console.warn(`No database host: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Users made before grants were escaped could reach other servers' databases: repaired once per host.
  for (const line of await repairMarkedHosts(db, box)) (line.failed ? console.warn : console.log)(line.message);
  // What ran at the last shutdown starts again (unless PANEL_RESTART_RUNNING_SERVERS=false).
  const resumed = await daemon.process.resume(config.restartRunningServers);
  if (resumed.length > 0) console.log(`Started again ${resumed.length} server(s) that were running when the panel stopped.`);

  await ensureSpaBuilt();
  const spaDir = path.join(REPO_ROOT, 'dist');
  if (!fs.existsSync(path.join(spaDir, 'index.html'))) {
    console.warn('No SPA build in dist/ (AERIE_SKIP_BUILD=1?): serving the API only.');
  }

  // The app's mail links name the address chosen here, as the start-up box does.
  const app = await buildApp({ config: { ...config, host: first.host }, db, nodes, clock: systemClock, spaDir });
  running.app = app;
  // Once the app listens to the node's events, which end them.
  await resumeInstalls(nodes, interrupted);
  if (interrupted.length > 0) console.log(`Running again ${interrupted.length} server install(s) the last shutdown interrupted.`);
  await app.listen({ port: config.port, host: first.host });
  // The admin CLI hands this panel what only it can do: stop a server it runs, revoke console tokens.
  try {
    running.stopControl = await listenForCli(controlSocketPath(config.dataDir), daemon);
  } catch (error) {
    console.warn(
      `The admin CLI cannot reach this panel (${error instanceof Error ? error.message : String(error)}): stop a server before deleting it with the CLI.`,
    );
  }
  // Runs a previous process left unfinished are marked interrupted; schedules missed meanwhile run once.
  await app.scheduler.start();
  // The node's SFTP server, the panel deciding who signs in (as Wings asks its panel). A port
  // taken elsewhere leaves the panel without SFTP, not without a panel.
  const sftpHost = config.sftpHost ?? first.host;
  try {
    const sftp = await daemon.startSftp({
      ...sftpAuthenticator({ config, db, nodes, clock: systemClock }),
      port: config.sftpPort,
      host: sftpHost,
      connections: config.sftpConnections,
    });
    running.stopSftp = sftp.close;
    await recordLocalSftp(db, nodes, { host: sftpHost, port: sftp.port }, config.appUrl);
    console.log(`SFTP listening on ${sftpHost}:${sftp.port}`);
  } catch (error) {
    console.warn(`No SFTP server on port ${config.sftpPort}: ${error instanceof Error ? error.message : String(error)} (set PANEL_SFTP_PORT)`);
    await recordLocalSftp(db, nodes, null, config.appUrl);
  }
  const bound = app.server.address();
  const url = panelOrigin({ ...config, host: first.host, port: typeof bound === 'object' && bound !== null ? bound.port : config.port });
  if (first.demo) printDemoBox(url, first.demo);
  if (first.admin) printAdminBox(url, first.admin);
  else if (!first.demo && !(await serverRepo.exist(db))) console.log(`No servers yet: add one with ${ADD_SERVER_HINT}`);
  console.log(`Aerie listening on ${url} (data dir ${config.dataDir})`);
}

start().catch((error: unknown) => {
  const err = error as NodeJS.ErrnoException;
  if (err.code === 'EADDRINUSE') {
    console.error('Aerie could not start: the port is already in use. Set PORT to another port, e.g. PORT=8081 npm start');
  } else {
    console.error(`Aerie could not start: ${err instanceof Error ? err.message : String(error)}`);
  }
  process.exit(1);
});
