import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { ServerConfiguration } from '../daemon/capabilities';
import type { LocalDaemon } from '../daemon/local';
import { DaemonError } from '../daemon/types';
import {
  backupRequest,
  commandsRequest,
  createServerRequest,
  denyRequest,
  logsQuery,
  powerRequest,
  restoreRequest,
  transferRequest,
} from '../daemon/wings/requests';
import type { NodeRuntime } from './node-runtime';
import { parseBody, UNKNOWN_SERVER, WingsError } from './wings-http';

/*
 * Wings' server routes (peers.md §4.2, §4.3) over the local daemon. Work Wings does in the
 * background (create, install, power, backups) is started and answered 202; how it ended reaches
 * the panel through the remote API (`node-runtime.ts`).
 */

export const NODE_VERSION = '1.11.0-aerie';

type Params = { Params: { server: string } };

export function wingsServerRoutes(app: FastifyInstance, daemon: LocalDaemon, runtime: NodeRuntime): void {
  const background = (what: string, work: Promise<unknown>) => void work.catch((error: unknown) => app.log.warn({ err: error }, `${what} failed`));

  app.get('/api/system', async () => ({
    architecture: os.arch() === 'x64' ? 'amd64' : os.arch(),
    cpu_count: os.cpus().length,
    kernel_version: os.release(),
    os: os.platform(),
    version: NODE_VERSION,
  }));

  app.get('/api/servers', async () => Promise.all(runtime.servers.map((server) => details(daemon, runtime, server))));

  app.post('/api/servers', async (request, reply) => {
    const body = parseBody(createServerRequest, request.body);
    const server = body.uuid.toLowerCase();
    // Wings pulls the configuration first: a server the panel does not give this node is not made.
    await daemon.servers.sync(server).catch((error: unknown) => {
      throw error instanceof DaemonError && error.kind === 'not_found' ? new WingsError(404, UNKNOWN_SERVER) : error;
    });
    runtime.add(server);
    background(
      `creating ${server}`,
      (async () => {
        await daemon.servers.create(server);
        if (body.start_on_completion === true) await daemon.process.power(server, 'start');
      })(),
    );
    return reply.status(202).send();
  });

  app.get<Params>('/api/servers/:server', async (request) => details(daemon, runtime, runtime.held(request.params.server)));

  app.delete<Params>('/api/servers/:server', async (request, reply) => {
    const server = runtime.held(request.params.server);
    runtime.remove(server);
    await daemon.servers.delete(server);
    return reply.status(204).send();
  });

  app.get<Params>('/api/servers/:server/logs', async (request) => {
    const server = runtime.held(request.params.server);
    const asked = Number(parseBody(logsQuery, request.query).size ?? 100);
    const size = Number.isInteger(asked) && asked >= 1 && asked <= 100 ? asked : 100;
    return { data: await daemon.process.history(server, size) };
  });

  app.post<Params>('/api/servers/:server/power', async (request, reply) => {
    const server = runtime.held(request.params.server);
    const { action } = parseBody(powerRequest, request.body);
    if ((action === 'start' || action === 'restart') && (await daemon.configuration(server)).settings.suspended) {
      throw new WingsError(400, 'Cannot start or restart a server that is suspended.');
    }
    background(`power ${action} of ${server}`, daemon.process.power(server, action));
    return reply.status(202).send();
  });

  app.post<Params>('/api/servers/:server/commands', async (request, reply) => {
    const server = runtime.held(request.params.server);
    const { commands } = parseBody(commandsRequest, request.body);
    if (daemon.process.state(server) === 'offline') throw new WingsError(502, 'Cannot send commands to a stopped server instance.');
    for (const line of commands) await daemon.process.command(server, line);
    return reply.status(204).send();
  });

  app.post<Params>('/api/servers/:server/install', async (request, reply) => {
    const server = runtime.held(request.params.server);
    background(`installing ${server}`, daemon.servers.create(server));
    return reply.status(202).send();
  });

  app.post<Params>('/api/servers/:server/reinstall', async (request, reply) => {
    const server = runtime.held(request.params.server);
    try {
      await daemon.servers.reinstall(server);
    } catch (error) {
      if (error instanceof DaemonError && error.kind === 'conflict') {
        throw new WingsError(409, 'Cannot execute server reinstall event while another power action is running.');
      }
      throw error;
    }
    return reply.status(202).send();
  });

  app.post<Params>('/api/servers/:server/transfer', async (request, reply) => {
    const server = runtime.held(request.params.server);
    const body = parseBody(transferRequest, request.body);
    try {
      await daemon.transfers.send(server, { url: body.url, token: body.token });
    } catch (error) {
      if (error instanceof DaemonError && error.kind === 'conflict') throw new WingsError(409, 'A transfer is already in progress for this server.');
      throw error;
    }
    return reply.status(202).send();
  });

  app.post<Params>('/api/servers/:server/sync', async (request, reply) => {
    const server = runtime.held(request.params.server);
    await daemon.servers.sync(server);
    return reply.status(204).send();
  });

  app.post<Params>('/api/servers/:server/ws/deny', async (request, reply) => {
    const server = runtime.held(request.params.server);
    await daemon.servers.revokeSocketTokens(server, parseBody(denyRequest, request.body).jtis);
    return reply.status(204).send();
  });

  app.post<Params>('/api/servers/:server/backup', async (request, reply) => {
    const server = runtime.held(request.params.server);
    const body = parseBody(backupRequest, request.body);
    if (body.adapter !== 'wings') throw new WingsError(400, 'This node keeps backups itself: the s3 adapter is not supported.');
    const ignore = body.ignore.split('\n').filter((line) => line.trim() !== '');
    await daemon.backups.create(server, body.uuid.toLowerCase(), ignore);
    return reply.status(202).send();
  });

  app.post<{ Params: { server: string; backup: string } }>('/api/servers/:server/backup/:backup/restore', async (request, reply) => {
    const server = runtime.held(request.params.server);
    const body = parseBody(restoreRequest, request.body);
    if (body.adapter !== 'wings') throw new WingsError(400, 'This node keeps backups itself: the s3 adapter is not supported.');
    await backupCall(() => daemon.backups.restore(server, request.params.backup.toLowerCase(), { truncate: body.truncate_directory }));
    return reply.status(202).send();
  });

  app.delete<{ Params: { server: string; backup: string } }>('/api/servers/:server/backup/:backup', async (request, reply) => {
    const server = runtime.held(request.params.server);
    await backupCall(() => daemon.backups.delete(server, request.params.backup.toLowerCase()));
    return reply.status(204).send();
  });
}

async function backupCall(call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (error instanceof DaemonError && error.kind === 'not_found') throw new WingsError(404, 'The requested backup was not found on this server.');
    throw error;
  }
}

/** A server as Wings describes it (`server/server.go` ToAPIResponse): state, utilization, configuration. */
async function details(daemon: LocalDaemon, runtime: NodeRuntime, server: string) {
  const configuration = await daemon.configuration(server);
  const utilization = await daemon.stats.resources(server);
  return {
    state: daemon.process.state(server),
    is_suspended: configuration.settings.suspended,
    utilization,
    configuration: wingsConfiguration(configuration),
  };
}

function wingsConfiguration({ settings }: ServerConfiguration) {
  return {
    uuid: settings.uuid,
    meta: settings.meta,
    suspended: settings.suspended,
    invocation: settings.invocation,
    skip_egg_scripts: settings.skip_egg_scripts,
    environment: settings.environment,
    labels: {},
    allocations: settings.allocations,
    build: settings.build,
    crash_detection_enabled: true,
    mounts: [],
    egg: settings.egg,
    container: { image: settings.container.image },
  };
}
