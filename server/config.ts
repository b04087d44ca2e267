import path from 'node:path';
import { z } from 'zod';
import { parsePortRange, PORT_RANGE_RULE } from './lib/port-range';
import { isTimeZone, machineTimeZone } from './lib/time';

/** Every setting the server reads, parsed once from the environment (README "Configuration"). */
/** The local node's ports for new servers and "add allocation" unless PANEL_ALLOCATION_PORTS says otherwise. */
export const DEFAULT_ALLOCATION_PORTS = { start: 25565, end: 25665 };

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  // Unset: loopback while the panel holds the demo accounts (published passwords), else every address.
  HOST: z.string().min(1).optional(),
  PANEL_DATA_DIR: z.string().default('./data'),
  APP_NAME: z.string().default('Aerie'),
  APP_URL: z.string().optional(),
  SESSION_COOKIE: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .optional(),
  SESSION_LIFETIME: z.coerce.number().int().min(1).default(720),
  // However active a session is, it ends this long after sign-in (minutes; 7 days).
  SESSION_ABSOLUTE_LIFETIME: z.coerce.number().int().min(1).default(10_080),
  SESSION_SECURE_COOKIE: z.stringbool().default(false),
  TRUST_PROXY: z.stringbool().default(false),
  PANEL_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  PANEL_MAX_EDIT_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(5 * 1024 * 1024),
  PANEL_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(100 * 1024 * 1024),
  // Files and folders one server's volume may hold, disk limit or not (inodes run out first); 0 = no cap.
  PANEL_MAX_SERVER_ENTRIES: z.coerce.number().int().min(0).default(250_000),
  // A connection that sends nothing for this long (mid-body, or idle between requests) is closed.
  PANEL_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1).default(60_000),
  // A request's headers must all arrive within this (slow-loris); bodies have only the idle timeout.
  PANEL_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1).default(20_000),
  // Connections the panel's HTTP server holds at once; unset: derived from the open-file limit (at most 4096).
  PANEL_MAX_CONNECTIONS: z.coerce.number().int().min(1).optional(),
  // Connections one client address holds at once (all of 127.0.0.0/8 is one, an IPv6 /64 is one); 0 = no cap.
  PANEL_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).default(256),
  // The same two caps for the SFTP listener, signed in or not.
  PANEL_SFTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).optional(),
  PANEL_SFTP_MAX_PER_IP: z.coerce.number().int().min(0).default(32),
  // Wings' default pids limit per container: processes and threads one server may run at once; 0 = none.
  PANEL_SERVER_PIDS_LIMIT: z.coerce.number().int().min(0).default(512),
  PANEL_SERVER_UID: z.coerce.number().int().min(1).max(4294967294).default(988),
  PANEL_SERVER_GID: z.coerce.number().int().min(1).max(4294967294).default(988),
  // Where no cgroups can hold servers to their memory and process limits, servers start only when set.
  PANEL_ALLOW_UNLIMITED_SERVERS: z.stringbool().default(false),
  // Without pasta (Debian's passt) servers are refused unless this lets them share the host's network.
  PANEL_ALLOW_HOST_NETWORK: z.stringbool().default(false),
  // Host loopback ports servers reach at 127.0.0.1 from their own network (a database host); unset: the managed MariaDB's.
  PANEL_SERVER_HOST_PORTS: z
    .string()
    .regex(/^(\d{1,5}(,\d{1,5})*)?$/, 'must be ports separated by commas, or empty')
    .transform((s) => (s === '' ? [] : s.split(',').map(Number)))
    .refine((ports) => ports.every((p) => p >= 1 && p <= 65535), 'ports must be within 1-65535')
    .optional(),
  // Servers that ran when the panel stopped start again at its next start, as they keep running under Wings.
  PANEL_RESTART_RUNNING_SERVERS: z.stringbool().default(true),
  // How long a stop (a power stop, or the panel's own shutdown) waits for the program before it is killed.
  PANEL_SERVER_STOP_TIMEOUT: z.coerce.number().int().min(1).max(3600).default(30),
  // The local node's ports "create allocation" hands out, first to last (inclusive).
  PANEL_ALLOCATION_PORTS: z
    .string()
    .refine((s) => parsePortRange(s) !== null, `must be ${PORT_RANGE_RULE}`)
    .transform((s) => parsePortRange(s) ?? DEFAULT_ALLOCATION_PORTS)
    .default(DEFAULT_ALLOCATION_PORTS),
  // mysql://user:password@host:port: registers (or updates) the database host `default` at start.
  PANEL_DB_HOST_URL: z.string().min(1).optional(),
  // Without any database host, run a MariaDB of the panel's own under the data dir when installed.
  PANEL_MANAGED_MARIADB: z.stringbool().default(true),
  PANEL_MARIADB_PORT: z.coerce.number().int().min(1).max(65535).default(3307),
  // The local node's SFTP server (0: a free port); its address follows HOST unless PANEL_SFTP_HOST is set.
  PANEL_SFTP_PORT: z.coerce.number().int().min(0).max(65535).default(2022),
  PANEL_SFTP_HOST: z.string().min(1).optional(),
  PANEL_SEED_DEMO: z.stringbool().default(true),
  // Demo accounts have published passwords: seeding them on an address others can reach takes this.
  PANEL_SEED_DEMO_FORCE: z.stringbool().default(false),
  // The reference panel's APP_API_CLIENT_RATELIMIT: client API requests per minute per user; 0 = off.
  PANEL_API_RATE_LIMIT: z.coerce.number().int().min(0).default(720),
  // The reference panel's APP_API_APPLICATION_RATELIMIT: application API requests per minute per key (or admin session); 0 = off.
  PANEL_API_APPLICATION_RATE_LIMIT: z.coerce.number().int().min(0).default(240),
  // The reference panel's APP_ACTIVITY_PRUNE_DAYS: activity older than this is deleted; 0 = kept forever.
  APP_ACTIVITY_PRUNE_DAYS: z.coerce.number().int().min(0).default(90),
  // The reference panel's backup throttle: at most LIMIT backups per server start within PERIOD seconds; a PERIOD of 0 = off.
  BACKUP_THROTTLE_LIMIT: z.coerce.number().int().min(1).default(2),
  BACKUP_THROTTLE_PERIOD: z.coerce.number().int().min(0).default(600),
  // The zone schedules' cron is read in unless a schedule has its own (an IANA name); unset = the machine's.
  APP_TIMEZONE: z.string().refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin or UTC').optional(),
  // The reference panel's per-schedule task limit.
  PANEL_SCHEDULE_TASK_LIMIT: z.coerce.number().int().min(1).max(1000).default(10),
  // Schedules one server may hold (the reference has no limit): bounds the scheduler's work per tenant.
  PANEL_SCHEDULE_LIMIT: z.coerce.number().int().min(1).max(1000).default(20),
  // smtp://user:pass@host:port or smtps://…: where password-reset mail goes; unset = no mail (the CLI prints reset links).
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('no-reply@localhost'),
  // warn by default: a terminal running `npm start` should stay readable; info logs every request.
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
});

export interface Config {
  port: number;
  /** HOST as set; undefined when unset (the start-up decides: see `listenHost`). */
  host: string | undefined;
  dataDir: string;
  appName: string;
  appUrl: string | undefined;
  sessionCookie: string;
  /** Sliding lifetime: a session unused this long ends. */
  sessionLifetimeMinutes: number;
  /** Absolute lifetime: a session ends this long after sign-in however active it is. */
  sessionAbsoluteLifetimeMinutes: number;
  secureCookies: boolean;
  trustProxy: boolean;
  maxBodyBytes: number;
  maxEditBytes: number;
  maxUploadBytes: number;
  /** Files and folders a server may hold (enforced on the panel's own writes); 0 = no cap. */
  maxEntriesPerServer: number;
  /** Milliseconds a connection may stay silent (mid-request or between requests) before it is closed. */
  idleTimeoutMs: number;
  /** Milliseconds within which a request's headers must have arrived. */
  headersTimeoutMs: number;
  /** Open connections to the HTTP server, and per client address bucket (0: no per-address cap). */
  connections: ConnectionCaps;
  /** The same for the SFTP listener. */
  sftpConnections: ConnectionCaps;
  /** Processes (and threads) one server may run at once; 0 = no limit. */
  serverPidsLimit: number;
  /** The host user a root panel runs servers as. */
  serverUser: { uid: number; gid: number };
  /** Start servers even where cgroups cannot limit their memory and processes (else they are refused). */
  allowUnlimitedServers: boolean;
  /** Servers may share the host's network when pasta is missing. */
  allowHostNetwork: boolean;
  /** Host loopback ports servers may reach from their network namespace. */
  serverHostPorts: number[];
  /** Start again at start-up the servers that ran when the panel last stopped. */
  restartRunningServers: boolean;
  /** Seconds a stop waits for a server's program before killing it. */
  serverStopTimeoutSeconds: number;
  /** The local node's port range for new allocations, inclusive. */
  allocationPorts: { start: number; end: number };
  /** Backups a server may start within `periodSeconds` (0: no throttle). */
  backupThrottle: { limit: number; periodSeconds: number };
  /** The zone schedules' cron is read in when a schedule has none. */
  timezone: string;
  /** Tasks a schedule may hold. */
  scheduleTaskLimit: number;
  /** Schedules a server may hold. */
  scheduleLimit: number;
  /** PANEL_DB_HOST_URL: the `default` database host's admin URL (holds a password: never log it). */
  dbHostUrl: string | undefined;
  /** Run a managed MariaDB under the data dir when no database host is configured. */
  managedMariadb: boolean;
  /** The managed MariaDB's port on 127.0.0.1. */
  mariadbPort: number;
  /** The local node's SFTP port (0: a free one, tests). */
  sftpPort: number;
  /** Address the SFTP server listens on; undefined: the panel's own. */
  sftpHost: string | undefined;
  seedDemo: boolean;
  /** Seed the demo accounts even when listening on an address other machines can reach. */
  seedDemoForce: boolean;
  /** Client API requests per minute per user (per address when signed out); 0 = no limit. */
  apiRateLimit: number;
  /** Application API requests per minute per key (per admin for a session, per address when signed out); 0 = no limit. */
  apiApplicationRateLimit: number;
  /** Days activity entries are kept (pruned at start and daily); 0 = forever. */
  activityRetentionDays: number;
  /** SMTP_URL: the mail server (holds a password: never log it); undefined = no mail is sent. */
  smtpUrl: string | undefined;
  /** The From of the panel's mail. */
  mailFrom: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
}

/**
 * `<slug of APP_NAME>_session`, the reference panel's default cookie name; with Secure cookies it
 * gets the `__Host-` prefix, so the browser keeps it only from this origin over HTTPS, with no
 * Domain and Path `/` (attacks T-CSRF-2). A name the operator sets is used as it is.
 */
export function sessionCookieName(appName: string, override?: string, secure = false): string {
  if (override) return override;
  const slug = appName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `${secure ? '__Host-' : ''}${slug || 'aerie'}_session`;
}

/**
 * The one origin of every link that leaves a request (mail, the start-up box, the CLI): APP_URL,
 * else the address the panel listens on (HOST, or the start-up's choice put into `host`; a wildcard
 * address as localhost). Never a request's Host header: a reset link on a host the requester chose
 * would hand them the token (attacks T-AUTH-2).
 */
export function panelOrigin(config: Pick<Config, 'appUrl' | 'host' | 'port'>): string {
  if (config.appUrl) return config.appUrl.replace(/\/+$/, '');
  const host = config.host === undefined || config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.replace(/^\[|\]$/g, '');
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** How many connections a listener holds at once: in all, and from one address bucket (0: no cap). */
export interface ConnectionCaps {
  total: number;
  perAddress: number;
}

/**
 * Default caps leave most descriptors to files, pipes, the database and SFTP's open handles: a
 * quarter of the open-file limit for HTTP and a thirty-second for SFTP (whose sessions hold files).
 */
export function defaultConnectionCaps(descriptorLimit: number): { http: number; sftp: number } {
  return { http: Math.max(16, Math.min(4096, Math.floor(descriptorLimit / 4))), sftp: Math.max(4, Math.min(512, Math.floor(descriptorLimit / 32))) };
}

/** Node raises its open-file limit to the hard limit at start; this is what the defaults assume without being told. */
const ASSUMED_DESCRIPTOR_LIMIT = 65_536;

/** `descriptorLimit`: the process's open-file limit, which the default connection caps follow. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, descriptorLimit = ASSUMED_DESCRIPTOR_LIMIT): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const caps = defaultConnectionCaps(descriptorLimit);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.PANEL_DATA_DIR),
    appName: e.APP_NAME,
    appUrl: e.APP_URL,
    sessionCookie: sessionCookieName(e.APP_NAME, e.SESSION_COOKIE, e.SESSION_SECURE_COOKIE),
    sessionLifetimeMinutes: e.SESSION_LIFETIME,
    sessionAbsoluteLifetimeMinutes: e.SESSION_ABSOLUTE_LIFETIME,
    secureCookies: e.SESSION_SECURE_COOKIE,
    trustProxy: e.TRUST_PROXY,
    maxBodyBytes: e.PANEL_MAX_BODY_BYTES,
    maxEditBytes: e.PANEL_MAX_EDIT_BYTES,
    maxUploadBytes: e.PANEL_MAX_UPLOAD_BYTES,
    maxEntriesPerServer: e.PANEL_MAX_SERVER_ENTRIES,
    idleTimeoutMs: e.PANEL_IDLE_TIMEOUT_MS,
    headersTimeoutMs: e.PANEL_HEADERS_TIMEOUT_MS,
    connections: { total: e.PANEL_MAX_CONNECTIONS ?? caps.http, perAddress: e.PANEL_MAX_CONNECTIONS_PER_IP },
    sftpConnections: { total: e.PANEL_SFTP_MAX_CONNECTIONS ?? caps.sftp, perAddress: e.PANEL_SFTP_MAX_PER_IP },
    serverPidsLimit: e.PANEL_SERVER_PIDS_LIMIT,
    serverUser: { uid: e.PANEL_SERVER_UID, gid: e.PANEL_SERVER_GID },
    allowUnlimitedServers: e.PANEL_ALLOW_UNLIMITED_SERVERS,
    restartRunningServers: e.PANEL_RESTART_RUNNING_SERVERS,
    serverStopTimeoutSeconds: e.PANEL_SERVER_STOP_TIMEOUT,
    allowHostNetwork: e.PANEL_ALLOW_HOST_NETWORK,
    serverHostPorts: e.PANEL_SERVER_HOST_PORTS ?? (e.PANEL_MANAGED_MARIADB ? [e.PANEL_MARIADB_PORT] : []),
    allocationPorts: e.PANEL_ALLOCATION_PORTS,
    backupThrottle: { limit: e.BACKUP_THROTTLE_LIMIT, periodSeconds: e.BACKUP_THROTTLE_PERIOD },
    timezone: e.APP_TIMEZONE ?? machineTimeZone(),
    scheduleTaskLimit: e.PANEL_SCHEDULE_TASK_LIMIT,
    scheduleLimit: e.PANEL_SCHEDULE_LIMIT,
    dbHostUrl: e.PANEL_DB_HOST_URL,
    managedMariadb: e.PANEL_MANAGED_MARIADB,
    mariadbPort: e.PANEL_MARIADB_PORT,
    sftpPort: e.PANEL_SFTP_PORT,
    sftpHost: e.PANEL_SFTP_HOST,
    seedDemo: e.PANEL_SEED_DEMO,
    seedDemoForce: e.PANEL_SEED_DEMO_FORCE,
    apiRateLimit: e.PANEL_API_RATE_LIMIT,
    apiApplicationRateLimit: e.PANEL_API_APPLICATION_RATE_LIMIT,
    activityRetentionDays: e.APP_ACTIVITY_PRUNE_DAYS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
  };
}

/** A config for tests: everything default except what is given. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ PANEL_DATA_DIR: '.tmp/test-data', LOG_LEVEL: 'silent' }), ...overrides };
}
