import type { DaemonEvent, DaemonEventChannel } from '../capabilities';

/** Where the daemon reports what went wrong outside any caller's request (a failing listener). */
export type DaemonLog = (message: string, error: unknown) => void;

export const consoleLog: DaemonLog = (message, error) => console.error(`[daemon] ${message}`, error);

type Listener = (event: DaemonEvent) => void | Promise<void>;

/**
 * The local daemon's event channel. A listener is the panel's code, not the daemon's: one that
 * throws or rejects is logged and the others still hear the event, and the daemon's own work
 * (which emitted it) never sees the failure.
 */
export class DaemonEvents implements DaemonEventChannel {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly log: DaemonLog = consoleLog) {}

  subscribe(listener: Listener): () => void {
    // Wrapped, so one function subscribed twice is two subscriptions, each removed by its own call.
    const entry: Listener = (event) => listener(event);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  emit(event: DaemonEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        Promise.resolve(listener(event)).catch((error: unknown) => this.log(`a ${event.type} listener failed`, error));
      } catch (error) {
        this.log(`a ${event.type} listener failed`, error);
      }
    }
  }
}
