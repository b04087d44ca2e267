import type { Db } from '../db';
import { allocations, eggs, servers } from '../db/repos';
import type { InstallConfiguration, ServerConfiguration } from '../daemon/capabilities';

/*
 * The configuration document the panel gives a node for one server (Wings' `{settings,
 * process_configuration}`), built from the server's row, its egg and variables, and its
 * allocations: what a node fetches (the remote API, or in-process for the local node) when it
 * creates a server, when the panel says it changed (`servers.sync`), and before each start.
 */

/**
 * How the egg's stop value is given to a node (the reference panel's conversion): `^C` and other
 * `^X` values, and signal names (`SIGTERM`), are signals; anything else is a console line.
 */
export function stopConfiguration(stop: string): ServerConfiguration['process_configuration']['stop'] {
  const value = stop.trim();
  if (value.startsWith('^')) return { type: 'signal', value: value.toUpperCase() };
  if (/^SIG[A-Z0-9]+$/i.test(value)) return { type: 'signal', value: value.toUpperCase() };
  return { type: 'command', value: value === '' ? 'stop' : value };
}

/**
 * The server's configuration, or undefined when there is no such server. The egg says when its
 * program has started (its done lines; none: as soon as it runs) and how it stops.
 */
export async function serverConfiguration(db: Db, uuid: string): Promise<ServerConfiguration | undefined> {
  const server = await servers.findByIdentifier(db, uuid);
  if (!server) return undefined;
  const [egg, variables, values, assigned] = await Promise.all([
    eggs.findById(db, server.egg_id),
    eggs.variablesOf(db, [server.egg_id]),
    servers.variableValues(db, [server.id]),
    allocations.ofServers(db, [server.id]),
  ]);
  if (!egg) throw new Error(`Server ${server.uuid} has no egg.`);
  const primary = assigned.find((a) => a.id === server.allocation_id) ?? assigned[0];
  const defaultAllocation = { ip: primary?.ip ?? '', port: primary?.port ?? 0 };

  const mappings: Record<string, number[]> = {};
  for (const a of assigned) (mappings[a.ip] ??= []).push(a.port);

  // Egg variables first, so the panel's own values below win over a variable of the same name.
  const environment: Record<string, string> = {};
  for (const v of variables) environment[v.env_variable] = values.get(`${server.id}:${v.id}`) ?? v.default_value;
  Object.assign(environment, {
    STARTUP: server.startup,
    SERVER_MEMORY: String(server.memory),
    SERVER_IP: defaultAllocation.ip,
    SERVER_PORT: String(defaultAllocation.port),
    P_SERVER_UUID: server.uuid,
    P_SERVER_ALLOCATION_LIMIT: String(server.allocation_limit ?? 0),
  });

  const oomDisabled = server.oom_disabled === 1;
  return {
    settings: {
      uuid: server.uuid,
      meta: { name: server.name, description: server.description },
      suspended: server.status === 'suspended',
      environment,
      invocation: server.startup,
      skip_egg_scripts: server.skip_scripts === 1,
      build: {
        memory_limit: server.memory,
        swap: server.swap,
        io_weight: server.io,
        cpu_limit: server.cpu,
        threads: server.threads ?? '',
        disk_space: server.disk,
        oom_disabled: oomDisabled,
      },
      container: { image: server.docker_image, oom_disabled: oomDisabled, requires_rebuild: false },
      allocations: { force_outgoing_ip: false, default: defaultAllocation, mappings },
      egg: { id: egg.uuid, file_denylist: [] },
    },
    process_configuration: {
      startup: { done: egg.config_startup.done, user_interaction: [], strip_ansi: false },
      stop: stopConfiguration(egg.config_stop),
    },
  };
}

/** What a node runs to install a server (Wings asks the panel for it): the egg's script, or undefined for none. */
export async function installConfiguration(db: Db, uuid: string): Promise<InstallConfiguration | undefined> {
  const server = await servers.findByIdentifier(db, uuid);
  const egg = server && (await eggs.findById(db, server.egg_id));
  // A server that skips its egg's scripts is installed with none, on any node.
  if (!egg?.script_install || server?.skip_scripts === 1) return undefined;
  return { container_image: egg.script_container, entrypoint: egg.script_entry, script: egg.script_install };
}
