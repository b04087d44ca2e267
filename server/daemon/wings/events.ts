import type { DaemonEvent, DaemonEventChannel } from '../capabilities';

/**
 * A Wings node's reports reach the panel through its remote API (`routes/remote.ts`), which
 * handles them and then publishes them here, for whoever waits on this node's events.
 */
export class WingsEvents implements DaemonEventChannel {
  private readonly listeners = new Set<(event: DaemonEvent) => void | Promise<void>>();

  constructor(private readonly log: (message: string) => void = () => undefined) {}

  subscribe(listener: (event: DaemonEvent) => void | Promise<void>): () => void {
    // Wrapped, so the same function subscribed twice is two subscriptions.
    const entry = (event: DaemonEvent) => listener(event);
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  /** Tells every listener; one that throws or rejects is logged and does not stop the others. */
  publish(event: DaemonEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        void Promise.resolve(listener(event)).catch((error: unknown) => this.log(`A listener of node events failed: ${String(error)}`));
      } catch (error) {
        this.log(`A listener of node events failed: ${String(error)}`);
      }
    }
  }
}
