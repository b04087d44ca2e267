import type * as z from 'zod/mini';
import type { InstallConfiguration, ServerConfiguration } from '../daemon/capabilities';
import { installConfigurationSchema, serverConfigurationSchema, serverPageSchema, sftpGrantSchema } from './panel-answers';

/*
 * The node's calls to the panel's remote API, made as Wings makes them (`remote/http.go`):
 * `Bearer <token_id>.<token>`, 15 s per attempt, retried with a growing pause on a 5xx answer or
 * a transport failure for up to about 30 s, never on a 4xx (the panel has decided).
 */

export class PanelError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'PanelError';
  }
}

export interface PanelClientOptions {
  remote: string;
  tokenId: string;
  token: string;
  timeoutMs?: number;
  /** How long failed attempts are retried, in all. */
  retryForMs?: number;
}

export interface ActivityEntry {
  user: string | null;
  server: string;
  event: string;
  metadata: Record<string, unknown>;
  ip: string;
  timestamp: string;
}

export class PanelClient {
  private readonly timeoutMs: number;
  private readonly retryForMs: number;

  constructor(private readonly options: PanelClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.retryForMs = options.retryForMs ?? 30_000;
  }

  /** The server's configuration; undefined when the panel has no such server on this node (404). */
  async serverConfiguration(server: string): Promise<ServerConfiguration | undefined> {
    return this.orMissing(() => this.json('GET', `/api/remote/servers/${encodeURIComponent(server)}`, serverConfigurationSchema));
  }

  async installConfiguration(server: string): Promise<InstallConfiguration | undefined> {
    return this.orMissing(() => this.json('GET', `/api/remote/servers/${encodeURIComponent(server)}/install`, installConfigurationSchema));
  }

  /** Every server on this node, in pages of 50 as Wings asks at boot (page 0 first). */
  async serverUuids(): Promise<string[]> {
    const first = await this.json('GET', '/api/remote/servers?page=0&per_page=50', serverPageSchema);
    const uuids = first.data.map((s) => s.uuid);
    for (let page = 2; page <= first.meta.last_page; page += 1) {
      const next = await this.json('GET', `/api/remote/servers?page=${page}&per_page=50`, serverPageSchema);
      uuids.push(...next.data.map((s) => s.uuid));
    }
    return uuids;
  }

  resetServers(): Promise<void> {
    return this.send('POST', '/api/remote/servers/reset');
  }

  reportInstall(server: string, successful: boolean, reinstall: boolean): Promise<void> {
    return this.send('POST', `/api/remote/servers/${encodeURIComponent(server)}/install`, { successful, reinstall });
  }

  /** `checksum` is the bare SHA-1 hex. */
  reportBackup(backup: string, report: { successful: boolean; checksum: string; size: number }): Promise<void> {
    return this.send('POST', `/api/remote/backups/${encodeURIComponent(backup)}`, { ...report, checksum_type: 'sha1', parts: [] });
  }

  /** The end of a transfer, as Wings' `SetTransferStatus`: the target says how it went; a failing source says so too. */
  reportTransfer(server: string, successful: boolean): Promise<void> {
    return this.send('POST', `/api/remote/servers/${encodeURIComponent(server)}/transfer/${successful ? 'success' : 'failure'}`);
  }

  reportRestore(backup: string, successful: boolean): Promise<void> {
    return this.send('POST', `/api/remote/backups/${encodeURIComponent(backup)}/restore`, { successful });
  }

  sendActivity(data: ActivityEntry[]): Promise<void> {
    return this.send('POST', '/api/remote/activity', { data });
  }

  /** Null when the panel refuses the sign-in (any 4xx, as Wings: no retry). */
  async sftpAuth(body: {
    type: 'password' | 'public_key';
    username: string;
    password: string;
    ip: string;
  }): Promise<z.output<typeof sftpGrantSchema> | null> {
    try {
      return await this.json('POST', '/api/remote/sftp/auth', sftpGrantSchema, { ...body, session_id: '', client_version: '' }, false);
    } catch (error) {
      if (error instanceof PanelError && error.status !== null && error.status >= 400 && error.status < 500) return null;
      throw error;
    }
  }

  private async orMissing<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof PanelError && error.status === 404) return undefined;
      throw error;
    }
  }

  private async send(method: string, path: string, body?: unknown): Promise<void> {
    await this.request(method, path, body, true);
  }

  private async json<S extends z.ZodMiniType>(method: string, path: string, schema: S, body?: unknown, retry = true): Promise<z.output<S>> {
    const res = await this.request(method, path, body, retry);
    const parsed = schema.safeParse(await res.json().catch(() => undefined));
    if (!parsed.success) throw new PanelError(res.status, `The panel's answer to ${method} ${path} is not what Wings expects.`);
    return parsed.data;
  }

  private async request(method: string, path: string, body: unknown, retry: boolean): Promise<Response> {
    const deadline = Date.now() + this.retryForMs;
    for (let attempt = 0; ; attempt += 1) {
      let failure: PanelError;
      try {
        const res = await fetch(`${this.options.remote}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.options.tokenId}.${this.options.token}`,
            accept: 'application/vnd.pterodactyl.v1+json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.timeoutMs),
          redirect: 'error',
        });
        if (res.ok) return res;
        const text = await res.text().catch(() => '');
        failure = new PanelError(res.status, `The panel answered ${method} ${path} with HTTP ${res.status}: ${text.slice(0, 200)}`);
        if (res.status < 500) throw failure;
      } catch (error) {
        if (error instanceof PanelError) throw error;
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
        failure = new PanelError(null, `The panel could not be reached (${method} ${path}): ${cause}`);
      }
      const pause = Math.min(8000, 500 * 2 ** attempt);
      if (!retry || Date.now() + pause > deadline) throw failure;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
