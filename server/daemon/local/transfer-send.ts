import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { once } from 'node:events';
import type { ConsoleEvent, DaemonEvent, TransferCapability } from '../capabilities';
import { DaemonError } from '../types';
import { writeArchive } from './archive-create';
import { reasonOf } from './backup-restore';
import type { DaemonLog } from './events';
import type { ServerLocks } from './locks';
import type { Volumes } from './volumes';

/*
 * The source of a transfer (Wings' `server/transfer/source.go`). The server's lock is held from the
 * first moment to the last, so no file write, power action, restore or reinstall lands in a volume
 * being sent. The volume goes as a gzip'd tar built by the compress walk (links kept as links),
 * straight into the request as it is made: nothing is staged on disk and never more than a chunk
 * is held in memory. Part `archive` comes first, then `checksum` (SHA-256 hex of the archive's
 * bytes), as Wings sends them; only a 200 is a success. The volume itself is never changed here.
 * The server's consoles hear how it goes as from Wings' source: `transfer status` (`processing`,
 * then `failure`, or `completed` when the panel deletes the server here) and `transfer logs` lines.
 */

export const TRANSFERRING = 'The server is being transferred to another node.';

/** How long a server is given to stop before it is killed (Wings' 15 s). */
const STOP_GRACE_MS = 15_000;
/** How often the consoles hear how much was sent (Wings: every 5 s). */
const PROGRESS_MS = 5_000;

const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

export interface TransferSendParts {
  volumes: Volumes;
  locks: ServerLocks;
  halt: (server: string, how: 'stop' | 'kill') => Promise<void>;
  emit: (event: DaemonEvent) => void;
  log: DaemonLog;
  /** Tells the server's consoles (live only); nothing by default. */
  announce?: (server: string, event: ConsoleEvent) => void;
  /** How long to wait for the server to stop before killing it; 15 s by default. */
  stopGraceMs?: number;
}

export class TransferSender implements TransferCapability {
  /** Servers whose files the target took: the panel deletes them here next, which ends their transfer. */
  private readonly handedOver = new Set<string>();

  constructor(private readonly parts: TransferSendParts) {}

  /** Called as the node deletes a server: for one it sent, Wings' last word to its consoles, before they close. */
  deleting(server: string): void {
    if (!this.handedOver.delete(server)) return;
    this.say(server, 'The server now runs on its new node.');
    this.status(server, 'completed');
  }

  private say(server: string, line: string): void {
    this.parts.announce?.(server, { type: 'transfer logs', line: `[Transfer] ${line}` });
  }

  private status(server: string, status: 'processing' | 'failure' | 'completed'): void {
    this.parts.announce?.(server, { type: 'transfer status', status });
  }

  /** Answers once the transfer holds the server; `transfer.sent` reports its end. */
  async send(server: string, target: { url: string; token: string }): Promise<void> {
    const url = new URL(target.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new DaemonError('bad_request', 'The target of a transfer must be an http(s) URL.');
    await this.parts.volumes.open(server);
    // Refused at once, as a reinstall is; `exclusive` takes the lock before its first await.
    this.parts.locks.admit(server);
    void this.parts.locks
      .exclusive(server, TRANSFERRING, async () => {
        let reason = '';
        this.handedOver.delete(server);
        try {
          this.say(server, 'Stopping the server for its transfer to another node.');
          await this.stop(server);
          this.status(server, 'processing');
          this.say(server, "Archiving the server's files and streaming them to the target node.");
          const bytes = await this.stream(server, url, target.token);
          this.say(server, `Sent ${mib(bytes)}; the target node verified the checksum and took the server.`);
          this.handedOver.add(server);
        } catch (error) {
          reason = reasonOf(error);
          if (!(error instanceof DaemonError)) this.parts.log(`the transfer of ${server} failed`, error);
          this.say(server, `The transfer failed: ${reason} The server stays on this node.`);
          this.status(server, 'failure');
        }
        return reason;
      })
      .then(
        (reason) => this.parts.emit({ type: 'transfer.sent', server, successful: reason === '', reason }),
        (error: unknown) => this.parts.log(`the transfer of ${server} could not start`, error),
      );
  }

  private async stop(server: string): Promise<void> {
    const grace = this.parts.stopGraceMs ?? STOP_GRACE_MS;
    let timer: NodeJS.Timeout | undefined;
    const stopped = await Promise.race([
      this.parts.halt(server, 'stop').then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), grace))),
    ]).finally(() => clearTimeout(timer));
    if (!stopped) await this.parts.halt(server, 'kill');
  }

  /** Sends the volume; returns the archive's size once the target answered 200. */
  private async stream(server: string, url: URL, token: string): Promise<number> {
    const boundary = `----AerieTransfer${randomBytes(12).toString('hex')}`;
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    });
    let early: http.IncomingMessage | null = null;
    const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
      request.once('response', (response: http.IncomingMessage) => resolve((early = response)));
      request.once('error', reject);
    });
    answered.catch(() => undefined);
    const write = async (chunk: Buffer | string): Promise<void> => {
      if (request.destroyed) throw new DaemonError('bad_request', 'the target node closed the connection.');
      if (!request.write(chunk)) await Promise.race([once(request, 'drain'), answered.then(() => Promise.reject(closedEarly()))]);
    };
    const hash = createHash('sha256');
    let sent = 0;
    const progress = setInterval(() => this.say(server, `Sending: ${mib(sent)} so far.`), PROGRESS_MS);
    try {
      await write(
        `--${boundary}\r\nContent-Disposition: form-data; name="archive"; filename="archive.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n`,
      );
      const vol = await this.parts.volumes.open(server);
      await writeArchive(vol, [], 'everything', write, {
        limits: { maxBytes: Number.MAX_SAFE_INTEGER, maxEntries: Number.MAX_SAFE_INTEGER },
        meter: () => Promise.resolve(),
        onChunk: (chunk) => {
          hash.update(chunk);
          sent += chunk.length;
        },
        links: true,
      });
      await write(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="checksum"\r\n\r\n${hash.digest('hex')}\r\n--${boundary}--\r\n`);
      request.end();
    } catch (error) {
      // A target that refused before the end (a bad token, a second transfer) says why.
      if (early) throw await refusedBy(early);
      request.destroy();
      throw error;
    } finally {
      clearInterval(progress);
    }
    const response = await answered.catch(() => Promise.reject(new DaemonError('bad_request', 'the target node could not be reached.')));
    if (response.statusCode !== 200) throw await refusedBy(response);
    response.resume();
    return sent;
  }
}

const closedEarly = (): DaemonError => new DaemonError('bad_request', 'the target node answered before the archive was sent.');

/** The target's refusal: its status and the first few KiB of its answer (the rest drained). */
async function refusedBy(response: http.IncomingMessage): Promise<DaemonError> {
  let text = '';
  try {
    for await (const chunk of response) if (text.length < 4096) text += String(chunk);
  } catch {
    // cut off: what arrived says enough
  }
  return new DaemonError('bad_request', `the target node answered ${response.statusCode ?? 0}: ${text.slice(0, 4096).trim()}`);
}
