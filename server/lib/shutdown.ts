/**
 * Shuts a process down once on SIGINT or SIGTERM (a second signal while it runs changes nothing):
 * says so, runs `stop`, and exits 0, or 1 with the reason when `stop` fails.
 */
export function onShutdownSignal(announce: (signal: string) => string, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(announce(signal));
    try {
      await stop();
      process.exit(0);
    } catch (error) {
      console.error(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}
