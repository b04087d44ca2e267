import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { DaemonEvent, NodeDaemon, ServerConfiguration } from '../../daemon/capabilities';
import { DaemonError, type UploadPart } from '../../daemon/types';

/** What the contract suite is handed for each test: a fresh daemon and a way to act as a tenant. */
export interface DaemonUnderTest {
  daemon: NodeDaemon;
  /** Puts a server's configuration where the daemon fetches it (the panel's side) and has it fetch it now (`servers.sync`). */
  configure(configuration: ServerConfiguration): Promise<void>;
  /** Plants a symbolic link in a server's volume, as the server's own process could. */
  plantLink(server: string, at: string, target: string): Promise<void>;
  /**
   * False for a daemon that receives a body of unknown length whole before its node sees any of
   * it (the Wings client: Wings needs Content-Length first), so no room is held while it arrives.
   */
  streamsBodies?: boolean;
  close(): Promise<void>;
}

export type MakeDaemon = () => Promise<DaemonUnderTest>;

export const MiB = 1024 * 1024;

/** A complete configuration for a test server; only the disk limit (MiB, 0 = unlimited) varies. */
export function testConfiguration(uuid: string, options: { diskMiB?: number } = {}): ServerConfiguration {
  const port = 30_000 + Math.floor(Math.random() * 20_000);
  return {
    settings: {
      uuid,
      meta: { name: 'Contract server', description: '' },
      suspended: false,
      environment: { STARTUP: 'java -jar server.jar', SERVER_MEMORY: '1024', SERVER_IP: '127.0.0.1', SERVER_PORT: String(port), P_SERVER_UUID: uuid },
      invocation: 'java -jar {{SERVER_JARFILE}}',
      skip_egg_scripts: false,
      build: { memory_limit: 1024, swap: 0, io_weight: 500, cpu_limit: 100, threads: '', disk_space: options.diskMiB ?? 0, oom_disabled: true },
      container: { image: 'ghcr.io/pterodactyl/yolks:java_21', oom_disabled: true, requires_rebuild: false },
      // A port of its own: each server's allocation is bound on the host (pasta) while it runs, tests run side by side.
      allocations: { force_outgoing_ip: false, default: { ip: '127.0.0.1', port }, mappings: { '127.0.0.1': [port] } },
      egg: { id: randomUUID(), file_denylist: [] },
    },
    process_configuration: { startup: { done: [], user_interaction: [], strip_ansi: false }, stop: { type: 'command', value: 'stop' } },
  };
}

/** Configures and creates a server with a fresh uuid; returns the uuid. */
export async function newServer(
  { daemon, configure }: Pick<DaemonUnderTest, 'daemon' | 'configure'>,
  options: { diskMiB?: number } = {},
): Promise<string> {
  const uuid = randomUUID();
  await configure(testConfiguration(uuid, options));
  await daemon.servers.create(uuid);
  return uuid;
}

/** The `DaemonError` kind a promise is refused with, 'ok' when it resolves, the message of anything else. */
export async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (error) {
    return error instanceof DaemonError ? error.kind : String(error);
  }
}

export async function refusal(p: Promise<unknown>): Promise<DaemonError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DaemonError)) throw new Error(`expected a DaemonError, got ${String(error)}`);
  return error;
}

export async function names(daemon: NodeDaemon, server: string, directory = '/'): Promise<string[]> {
  return (await daemon.files.list(server, directory)).map((e) => e.name);
}

export async function text(daemon: NodeDaemon, server: string, file: string): Promise<string> {
  return (await daemon.files.read(server, file, MiB)).toString('utf8');
}

export const put = (daemon: NodeDaemon, server: string, file: string, content: string | Buffer) =>
  daemon.files.write(server, file, Buffer.from(content), { maxBytes: 16 * MiB });

/** A stream the test feeds by hand, to hold an operation mid-way. */
export function gatedStream(): {
  stream: Readable;
  push(chunk: string | Buffer): void;
  /** Resolves once the daemon has read all that was pushed (and the callbacks that follow ran). */
  taken(): Promise<void>;
  end(): void;
  fail(error: Error): void;
} {
  const stream = new Readable({ read: () => undefined });
  return {
    stream,
    push: (chunk) => void stream.push(Buffer.from(chunk)),
    taken: async () => {
      // A loaded machine may take longer than any fixed pause to reach the body: wait for the read.
      for (let i = 0; i < 2000 && stream.readableLength > 0; i += 1) await new Promise((r) => setTimeout(r, 5));
      await settle();
    },
    end: () => void stream.push(null),
    fail: (error) => void stream.destroy(error),
  };
}

export async function* uploads(...files: { filename: string; content: Buffer | Readable }[]): AsyncGenerator<UploadPart> {
  for (const f of files) yield { filename: f.filename, stream: Buffer.isBuffer(f.content) ? Readable.from([f.content]) : f.content };
}

/** Lets every pending callback run, so work started without being awaited reaches its first wait. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Records the events of a daemon; `next(type)` waits for the next one of that type. */
export function recordEvents(daemon: NodeDaemon) {
  const seen: DaemonEvent[] = [];
  const waiters: { type: DaemonEvent['type']; resolve: (event: DaemonEvent) => void }[] = [];
  const unsubscribe = daemon.events.subscribe((event) => {
    seen.push(event);
    const i = waiters.findIndex((w) => w.type === event.type);
    if (i >= 0) waiters.splice(i, 1)[0]?.resolve(event);
  });
  return {
    seen,
    unsubscribe,
    next: (type: DaemonEvent['type']) => new Promise<DaemonEvent>((resolve) => waiters.push({ type, resolve })),
  };
}
