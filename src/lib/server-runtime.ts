import type { Server } from '../contract/servers';

type Runtime = NonNullable<Server['aerie_runtime']>;

/*
 * The truth about what a server on Aerie's own node runs with, in the words the startup page and
 * the overview share. That node does not run container images yet (issue 27): the startup
 * command runs in a sandbox with the machine's own programs, whatever image is chosen.
 */

/** Why the image shown does not decide the runtime. */
export const IMAGE_NOT_USED =
  'This node does not run container images yet: the server runs its startup command in a sandbox with this machine’s own programs, whatever image is chosen. The image is kept for a node that runs images.';

/** Which program of the host the server runs, or that the host lacks it. */
export function programSentence(runtime: Runtime): string {
  return runtime.program_path
    ? `It runs ${runtime.program} from this machine (${runtime.program_path}).`
    : `This machine has no ${runtime.program}, so the server cannot start until an administrator installs it.`;
}

/**
 * What the user must put in place when installing lays out nothing (Paper: its jar), or null.
 * `file` is the file the startup runs, when a variable names one (a `.jar`).
 */
export function filesSentence(runtime: Runtime, file: string | null): string | null {
  if (runtime.installs_files) return null;
  const what = file ? `${file}, the file its startup command runs,` : 'the files its startup command runs';
  return `Installing this server downloads nothing: upload ${what} to its files before starting it.`;
}

/** The value of the variable naming the program file the server runs (Paper's Server Jar File). */
export function programFile(variables: readonly { server_value: string | null; default_value: string }[]): string | null {
  for (const v of variables) {
    const value = (v.server_value ?? v.default_value).trim();
    if (/\.jar$/i.test(value)) return value;
  }
  return null;
}
