import { randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A test double of Wings (an external program, peers.md §4): an HTTP server that answers the
 * panel's calls with Wings' statuses and bodies, written from Wings' source, and records every
 * request it gets. A test replaces any route's answer with `answer(route, …)`.
 */

export interface RecordedRequest {
  method: string;
  /** The path with the server's uuid as `:server` and a backup's as `:backup`. */
  route: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type WingsAnswer =
  | { status: number; json?: unknown; body?: Buffer | string; headers?: Record<string, string> }
  /** Never answers (a node that hangs). */
  | 'hang'
  | ((request: RecordedRequest, res: ServerResponse) => void);

/** Wings' error body with its request id (`router/middleware/request_error.go`). */
export const wingsError = (status: number, error: string): WingsAnswer => ({
  status,
  json: { error, request_id: randomUUID() },
});

/** A stat object as Wings writes it (`server/filesystem/stat.go`): RFC 3339 times. */
export function wingsStat(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    created: '2026-03-01T12:00:00Z',
    modified: '2026-03-01T13:30:00+01:00',
    mode: '-rw-r--r--',
    mode_bits: '644',
    size: 11,
    directory: false,
    file: true,
    symlink: false,
    mime: 'text/plain; charset=utf-8',
    ...overrides,
  };
}

export const wingsUtilization = {
  memory_bytes: 104_857_600,
  memory_limit_bytes: 1_073_741_824,
  cpu_absolute: 12.5,
  network: { rx_bytes: 2048, tx_bytes: 4096 },
  uptime: 61_000,
  state: 'running',
  disk_bytes: 5_242_880,
};

const empty = (status: number): WingsAnswer => ({ status });

/** What Wings answers each route with when all goes well (peers.md §4.3). */
const DEFAULTS: Record<string, WingsAnswer> = {
  'GET /api/system': {
    status: 200,
    json: { architecture: 'amd64', cpu_count: 2, kernel_version: '6.1.0-18-amd64', os: 'linux', version: '1.11.13' },
  },
  'POST /api/servers': empty(202),
  'GET /api/servers/:server': {
    status: 200,
    json: {
      state: 'running',
      is_suspended: false,
      utilization: wingsUtilization,
      configuration: { uuid: 'x', meta: { name: 'S', description: '' } },
    },
  },
  'DELETE /api/servers/:server': empty(204),
  'POST /api/servers/:server/power': empty(202),
  'POST /api/servers/:server/commands': empty(204),
  'POST /api/servers/:server/sync': empty(204),
  'POST /api/servers/:server/reinstall': empty(202),
  'POST /api/servers/:server/ws/deny': empty(204),
  'POST /api/servers/:server/transfer': empty(202),
  'GET /api/servers/:server/files/list-directory': {
    status: 200,
    json: [
      wingsStat('plugins', { directory: true, file: false, mode: 'drwxr-xr-x', mode_bits: '755', size: 4096, mime: 'inode/directory' }),
      wingsStat('server.properties'),
    ],
  },
  'GET /api/servers/:server/files/contents': { status: 200, body: 'key: value\n', headers: { 'x-mime-type': 'text/plain' } },
  'POST /api/servers/:server/files/write': empty(204),
  'POST /api/servers/:server/files/create-directory': empty(204),
  'PUT /api/servers/:server/files/rename': empty(204),
  'POST /api/servers/:server/files/copy': empty(204),
  'POST /api/servers/:server/files/delete': empty(204),
  'POST /api/servers/:server/files/compress': {
    status: 200,
    json: wingsStat('archive-2026-03-01T120000Z.tar.gz', { size: 2048, mime: 'application/tar+gzip' }),
  },
  'POST /api/servers/:server/files/decompress': empty(204),
  'POST /api/servers/:server/backup': empty(202),
  'POST /api/servers/:server/backup/:backup/restore': empty(202),
  'DELETE /api/servers/:server/backup/:backup': empty(204),
  'GET /download/backup': { status: 200, body: Buffer.from('backup archive bytes'), headers: { 'content-type': 'application/octet-stream' } },
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export interface WingsDouble {
  url: string;
  /** The node token it takes (a test may set the panel's node's). */
  token: string;
  requests: RecordedRequest[];
  /** The last request to `route` (`METHOD /path` with placeholders). */
  last(route: string): RecordedRequest;
  answer(route: string, answer: WingsAnswer): void;
  close(): Promise<void>;
}

export async function startWingsDouble(token = 'w'.repeat(64)): Promise<WingsDouble> {
  const requests: RecordedRequest[] = [];
  const answers = new Map<string, WingsAnswer>(Object.entries(DEFAULTS));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://wings');
      let n = 0;
      const route = url.pathname.replace(UUID, () => (n++ === 0 ? ':server' : ':backup'));
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        route: `${req.method ?? ''} ${route}`,
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      // Wings' AuthorizationMiddleware (`router/middleware/middleware.go`); downloads carry a JWT instead.
      if (!route.startsWith('/download/')) {
        const [scheme, given] = (req.headers.authorization ?? '').split(' ', 2);
        if (scheme !== 'Bearer' || !given)
          return send(res, wingsError(401, 'The required authorization heads were not present in the request.'), recorded);
        if (given !== double.token) return send(res, wingsError(403, 'You are not authorized to access this endpoint.'), recorded);
      }
      send(res, answers.get(recorded.route) ?? wingsError(404, 'The requested resource does not exist on this instance.'), recorded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const double: WingsDouble = {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    last(route) {
      const found = requests.filter((r) => r.route === route).at(-1);
      if (!found) throw new Error(`Wings got no ${route}; it got ${requests.map((r) => r.route).join(', ')}`);
      return found;
    },
    answer: (route, answer) => void answers.set(route, answer),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return double;
}

function send(res: ServerResponse, answer: WingsAnswer, request: RecordedRequest): void {
  if (answer === 'hang') return;
  if (typeof answer === 'function') return answer(request, res);
  const body = answer.json === undefined ? answer.body : JSON.stringify(answer.json);
  const headers: Record<string, string> = { ...(answer.json === undefined ? {} : { 'content-type': 'application/json' }), ...answer.headers };
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  // Wings adds the request id as a header too.
  res.writeHead(answer.status, { 'x-request-id': randomUUID(), ...headers });
  res.end(body);
}
