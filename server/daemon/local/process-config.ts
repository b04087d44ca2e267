import type { ServerConfiguration } from '../capabilities';
import { CONTAINER_HOME } from './sandbox';

/*
 * What a server's configuration (Wings' document) becomes for its process: the command line, the
 * environment and the stop signal. The install script's run takes the same environment.
 */

/** The signal a Wings stop value names (`^C` is SIGINT, `^X`-style values and names such as `SIGTERM`). */
export function stopSignal(value: string): NodeJS.Signals {
  const v = value.trim().toUpperCase();
  if (v === '^C') return 'SIGINT';
  if (v === '^\\') return 'SIGQUIT';
  const name = v.startsWith('SIG') ? v : `SIG${v}`;
  return (['SIGINT', 'SIGTERM', 'SIGQUIT', 'SIGHUP', 'SIGKILL', 'SIGUSR1', 'SIGUSR2'] as const).find((s) => s === name) ?? 'SIGTERM';
}

/**
 * The invocation for the shell, each `{{VARIABLE}}` (and `{{env.VARIABLE}}`) turned into `${VARIABLE}`,
 * as a Wings entrypoint does: the shell expands the value from the environment and never parses it,
 * so a user's value holding `$(…)`, `;` or a newline stays text (attacks T-LEAK-3).
 */
export function startupCommand(invocation: string): string {
  return invocation.replace(/\{\{\s*(?:env\.)?([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, name: string) => `\${${name}}`);
}

/** What the process sees: the egg's variables and Wings' own, nothing of the panel's environment. */
export function processEnvironment(configuration: ServerConfiguration): Record<string, string> {
  const { environment, build, allocations } = configuration.settings;
  return {
    ...environment,
    STARTUP: configuration.settings.invocation,
    SERVER_MEMORY: String(build.memory_limit),
    SERVER_IP: allocations.default.ip,
    SERVER_PORT: String(allocations.default.port),
    P_SERVER_UUID: configuration.settings.uuid,
    TZ: environment.TZ ?? 'UTC',
    HOME: CONTAINER_HOME,
    PATH: '/usr/local/bin:/usr/bin:/bin',
  };
}
