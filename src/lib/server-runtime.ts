import type { Server } from '../contract/servers';
import { t } from './messages';

type Runtime = NonNullable<Server['aerie_runtime']>;

/*
 * The truth about what a server on Aerie's own node runs with, in the words the startup page and
 * the overview share. That node does not run container images yet (issue 27): the startup
 * command runs in a sandbox with the machine's own programs, whatever image is chosen.
 */

/*
 * The sentences are read in the language being shown when called: a component calling them also
 * calls its own `useT()`, so it re-renders when the language changes.
 */

/** Why the image shown does not decide the runtime. */
export function imageNotUsed(): string {
  return t('lib.runtime.imageNotUsed');
}

/** Which program of the host the server runs, or that the host lacks it. */
export function programSentence(runtime: Runtime): string {
  return runtime.program_path
    ? t('lib.runtime.program', { program: runtime.program, path: runtime.program_path })
    : t('lib.runtime.noProgram', { program: runtime.program });
}

/**
 * What the user must put in place when installing lays out nothing (Paper: its jar), or null.
 * `file` is the file the startup runs, when a variable names one (a `.jar`).
 */
export function filesSentence(runtime: Runtime, file: string | null): string | null {
  if (runtime.installs_files) return null;
  return file ? t('lib.runtime.uploadFile', { file }) : t('lib.runtime.uploadFiles');
}

/** The value of the variable naming the program file the server runs (Paper's Server Jar File). */
export function programFile(variables: readonly { server_value: string | null; default_value: string }[]): string | null {
  for (const v of variables) {
    const value = (v.server_value ?? v.default_value).trim();
    if (/\.jar$/i.test(value)) return value;
  }
  return null;
}
