import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { SignJWT } from 'jose';
import type { BackupCapability } from '../capabilities';
import { tokenKey } from '../tokens';
import { serverPath, type WingsTransport } from './transport';
import type { BackupRequest, RestoreRequest } from './requests';

/*
 * Backups with Wings' `wings` adapter: archives the node keeps; it reports each end through the
 * panel's remote API. Downloads go through the node's own `/download/backup`, on a token the panel
 * signs for itself as it would for a browser.
 */

const TOKEN_SECONDS = 60;

export class WingsBackups implements BackupCapability {
  constructor(
    private readonly http: WingsTransport,
    private readonly signing: { key: () => string; audience: string },
  ) {}

  async create(server: string, backup: string, ignore: string[]): Promise<void> {
    await this.http.empty({
      method: 'POST',
      path: serverPath(server, '/backup'),
      json: { adapter: 'wings', uuid: backup, ignore: ignore.join('\n') } satisfies BackupRequest,
    });
  }

  async restore(server: string, backup: string, options: { truncate: boolean }): Promise<void> {
    await this.http.empty({
      method: 'POST',
      path: serverPath(server, `/backup/${encodeURIComponent(backup)}/restore`),
      json: { adapter: 'wings', truncate_directory: options.truncate, download_url: '' } satisfies RestoreRequest,
    });
  }

  /** Wings' 404 stays `not_found` (the reference panel tolerates it; our callers decide). */
  async delete(server: string, backup: string): Promise<void> {
    await this.http.empty({ method: 'DELETE', path: serverPath(server, `/backup/${encodeURIComponent(backup)}`) });
  }

  async open(server: string, backup: string): Promise<{ size: number; stream: Readable }> {
    const token = await this.sign(server, backup);
    const response = await this.http.send({ method: 'GET', path: '/download/backup', query: { token } });
    // An archive goes at the reader's pace: no idle deadline on it.
    response.setTimeout(0);
    return { size: Number(response.headers['content-length'] ?? 0), stream: response };
  }

  /** Wings' backup download claims (peers.md §4.5), with the `scope` newer Wings require. */
  private sign(server: string, backup: string): Promise<string> {
    const iat = Math.floor(Date.now() / 1000);
    const jti = randomBytes(16).toString('hex');
    return new SignJWT({
      scope: 'backup-download',
      server_uuid: server,
      backup_uuid: backup,
      unique_id: randomBytes(12).toString('base64url'),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', jti })
      .setAudience(this.signing.audience)
      .setJti(jti)
      .setIssuedAt(iat)
      .setNotBefore(iat - 5 * 60)
      .setExpirationTime(iat + TOKEN_SECONDS)
      .sign(tokenKey(this.signing.key()));
  }
}
