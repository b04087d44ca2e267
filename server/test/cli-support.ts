import { CliError, runCli, type CliDeps } from '../cli/commands';

/** The admin CLI run in-process on `deps`: a command's answer. */
export const cliRunner =
  (deps: CliDeps) =>
  (...argv: string[]) =>
    runCli(argv, deps) as Promise<Record<string, unknown>>;

/** A command that must fail: its message and exit code (the test fails if it succeeds). */
export const cliFailure =
  (deps: CliDeps) =>
  async (argv: string[]): Promise<{ message: string; exitCode: number }> => {
    try {
      await runCli(argv, deps);
    } catch (error) {
      return { message: (error as Error).message, exitCode: error instanceof CliError ? error.exitCode : 1 };
    }
    throw new Error(`expected ${argv.join(' ')} to fail`);
  };
