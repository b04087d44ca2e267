import type { ActivityEntry } from './panel-client';

/*
 * Activity the node saw itself (signed uploads, SFTP), sent to the panel in batches as Wings does
 * (`POST /api/remote/activity`): every few seconds and at shutdown. A batch the panel did not take
 * is kept and sent again, but never more than `maxHeld` entries: past that the oldest go, so an
 * unreachable panel cannot grow the node's memory.
 */

export const ACTIVITY_BATCH = 100;

export class ActivityBatch {
  private held: ActivityEntry[] = [];
  private sending: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly send: (data: ActivityEntry[]) => Promise<void>,
    private readonly warn: (message: string) => void,
    private readonly maxHeld = 10_000,
  ) {}

  add(entry: ActivityEntry): void {
    this.held.push(entry);
    if (this.held.length > this.maxHeld) this.held.splice(0, this.held.length - this.maxHeld);
  }

  get size(): number {
    return this.held.length;
  }

  start(everyMs: number): void {
    this.timer ??= setInterval(() => void this.flush(), everyMs);
    this.timer.unref();
  }

  /** Sends what is held, a batch at a time; stops at the first failure and keeps the rest. */
  flush(): Promise<void> {
    this.sending ??= this.drain().finally(() => (this.sending = null));
    return this.sending;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sending;
    await this.flush();
  }

  private async drain(): Promise<void> {
    while (this.held.length > 0) {
      const batch = this.held.slice(0, ACTIVITY_BATCH);
      try {
        await this.send(batch);
      } catch (error) {
        this.warn(`activity not sent (${this.held.length} entries kept): ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      // Entries added meanwhile were appended; the oldest may have been dropped past maxHeld.
      const sent = this.held.indexOf(batch[0] as ActivityEntry);
      if (sent >= 0) this.held.splice(sent, batch.length);
    }
  }
}
