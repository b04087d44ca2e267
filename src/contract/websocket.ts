import * as z from 'zod/mini';
import { endpoint } from './endpoint';
import { text } from './fields';

/*
 * The console: the HTTP command and power endpoints, and the Wings websocket protocol. Every frame
 * in either direction is `{event, args?}` with string arguments; structured payloads (stats,
 * backup results) travel as one JSON string argument, exactly as Wings sends them.
 */

// A console command sent over HTTP.
export const commandSchema = z.object({
  command: text('The command field is required.').check(
    z.trim(),
    z.minLength(1, 'The command field is required.'),
    z.maxLength(4096, 'The command may not be greater than 4096 characters.'),
  ),
});

export const POWER_SIGNALS = ['start', 'stop', 'restart', 'kill'] as const;
export type PowerSignal = (typeof POWER_SIGNALS)[number];

/** The permission each power signal takes, over HTTP and on the node's socket alike (kill is a stop). */
export const POWER_PERMISSIONS = { start: 'control.start', stop: 'control.stop', kill: 'control.stop', restart: 'control.restart' } as const;

/** Is this one of the power signals? */
export function isPowerSignal(value: string): value is PowerSignal {
  return (POWER_SIGNALS as readonly string[]).includes(value);
}

// POST power (reference panel: surrounding spaces are trimmed)
export const powerSchema = z.object({
  signal: text('The signal field is required.').check(z.trim(), z.refine(isPowerSignal, 'The selected signal is invalid.')),
});

/** GET servers/{server}/websocket: a 10-minute token and the node's socket URL (no fractal envelope). */
export const websocketTokenSchema = z.object({ data: z.object({ token: z.string(), socket: z.string() }) });

/** The states of a server's process, as Wings names them. */
export const PROCESS_STATES = ['offline', 'starting', 'running', 'stopping'] as const;
export type ProcessState = (typeof PROCESS_STATES)[number];

/** The `stats` payload (one JSON string argument). */
export const socketStatsSchema = z.object({
  memory_bytes: z.number(),
  memory_limit_bytes: z.number(),
  cpu_absolute: z.number(),
  network: z.object({ rx_bytes: z.number(), tx_bytes: z.number() }),
  uptime: z.number(),
  state: z.enum(PROCESS_STATES),
  disk_bytes: z.number(),
});
export type SocketStats = z.infer<typeof socketStatsSchema>;

/** The payload of `backup completed:<uuid>`. */
export const socketBackupCompletedSchema = z.object({
  uuid: z.string(),
  is_successful: z.boolean(),
  checksum: z.string(),
  checksum_type: z.string(),
  file_size: z.number(),
});

/** The payload of `backup progress:<uuid>` (Aerie's; Wings sends none): `progress` from 0 to 1. */
export const socketBackupProgressSchema = z.object({ uuid: z.string(), progress: z.number().check(z.minimum(0), z.maximum(1)) });

/** Daemon → browser: the event names Wings sends (`backup completed` carries `:<uuid>`). */
export const SOCKET_EVENTS = {
  authSuccess: 'auth success',
  tokenExpiring: 'token expiring',
  tokenExpired: 'token expired',
  jwtError: 'jwt error',
  daemonError: 'daemon error',
  daemonMessage: 'daemon message',
  status: 'status',
  stats: 'stats',
  consoleOutput: 'console output',
  installOutput: 'install output',
  installStarted: 'install started',
  installCompleted: 'install completed',
  backupCompleted: 'backup completed',
  /** Aerie's: how far a running backup is (`backup progress:<uuid>`). */
  backupProgress: 'backup progress',
  backupRestoreCompleted: 'backup restore completed',
  transferLogs: 'transfer logs',
  transferStatus: 'transfer status',
  deleted: 'deleted',
} as const;

/** One frame from the daemon; its `args` are checked per event by the consumer. */
export const socketMessageSchema = z.object({ event: z.string(), args: z.optional(z.array(z.string())) });
export type SocketMessage = z.infer<typeof socketMessageSchema>;

/** GET resources: what the server uses now (reference panel's `stats` object). */
export const serverStatsSchema = z.object({
  object: z.literal('stats'),
  attributes: z.object({
    current_state: z.enum(PROCESS_STATES),
    is_suspended: z.boolean(),
    resources: z.object({
      memory_bytes: z.number(),
      cpu_absolute: z.number(),
      disk_bytes: z.number(),
      network_rx_bytes: z.number(),
      network_tx_bytes: z.number(),
      uptime: z.number(),
    }),
  }),
});
export type ServerStats = z.infer<typeof serverStatsSchema>;

/** The body power takes on the wire: every signal string, so a subuser's unknown one is refused as a permission (403). */
const powerRequestSchema = z.object({
  signal: text('The signal field is required.').check(z.trim(), z.minLength(1, 'The signal field is required.')),
});

/** The console over HTTP (reference panel: command and power, each the node's call in turn). */
export const consoleEndpoints = {
  command: endpoint({
    method: 'POST',
    path: '/api/client/servers/:server/command',
    body: commandSchema,
    response: 'empty',
    permission: 'control.console',
  }),
  /** The permission depends on the signal (start, stop and kill, restart): checked in the handler. */
  power: endpoint({ method: 'POST', path: '/api/client/servers/:server/power', body: powerRequestSchema, response: 'empty', permission: 'request' }),
  /** Any member may read it. */
  resources: endpoint({ method: 'GET', path: '/api/client/servers/:server/resources', response: serverStatsSchema, permission: null }),
};

export const websocketEndpoints = {
  /**
   * A token for the node's websocket and its address. The permission is checked in the handler:
   * its refusal has its own wording, and admins may watch an installing or restoring server.
   */
  token: endpoint({
    method: 'GET',
    path: '/api/client/servers/:server/websocket',
    response: websocketTokenSchema,
    permission: 'request',
    anyState: true,
  }),
};
