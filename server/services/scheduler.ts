import type { PowerSignal } from '../../src/contract';
import type { Db } from '../db';
import { backups, nodes, schedules, servers } from '../db/repos';
import type { ScheduleRow, TaskRow } from '../db/schema-schedules';
import { conflict } from '../http/errors';
import type { Clock } from '../lib/time';
import { logActivity } from './activity';
import type { BackupThrottle } from './backups';
import { nextRun } from '../../src/contract/cron';
import type { NodeDaemons } from './node-daemons';
import { cronOf, RUNS_KEPT, zoneOf } from './schedules';
import { actorActivity, removeBackup, sendCommand, sendPower, startBackup, type Actor, type ServerAction } from './server-actions';

/*
 * The scheduler (issue 23 §3): every minute it runs the schedules that are due, each on its own,
 * so one schedule's failure never holds up another. A run takes its tasks in order, each after its
 * own offset, acting through the same services a user's request does, as the schedule. Its state
 * is in the database: `next_run_at` moves on when a run starts, so a panel that was down runs a
 * missed schedule once, not once per missed minute, and a run the panel did not finish is marked
 * interrupted at the next start instead of leaving the schedule processing for ever.
 */

export type RunTrigger = 'cron' | 'manual' | 'missed';
type TaskOutcome = {
  task_id: number;
  sequence_id: number;
  action: string;
  outcome: 'done' | 'skipped' | 'failed';
  reason: string | null;
  at: string;
};

export interface SchedulerDeps {
  db: Db;
  clock: Clock;
  nodes: NodeDaemons;
  config: { timezone: string; backupThrottle: BackupThrottle };
  /** Waits out a task's offset; real time unless a test moves its own clock. */
  sleep?: (ms: number) => Promise<void>;
  warn?: (message: string) => void;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Runs under way in this process, for tests and a clean stop. */
  readonly inFlight = new Set<Promise<void>>();
  /** Schedules whose chain runs in this process now. */
  private readonly running = new Set<number>();

  constructor(private readonly deps: SchedulerDeps) {}

  /** Marks runs a previous process left unfinished, runs what was missed meanwhile, then ticks each minute. */
  async start(): Promise<void> {
    const interrupted = await schedules.interruptUnfinished(this.deps.db, this.deps.clock.now(), 'The panel stopped while this run was under way.');
    if (interrupted > 0) this.deps.warn?.(`${interrupted} schedule run(s) were interrupted when the panel last stopped.`);
    await this.tick('missed');
    this.arm();
  }

  /** True while a chain of this schedule runs here: its processing flag is then no stale one to clear. */
  isRunning(scheduleId: number): boolean {
    return this.running.has(scheduleId);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    if (this.stopped) return;
    // A little after each minute begins, so a schedule due at :00 is found due.
    const wait = 60_000 - (Date.now() % 60_000) + 250;
    this.timer = setTimeout(() => {
      void this.tick('cron').finally(() => this.arm());
    }, wait);
    this.timer.unref();
  }

  /** Starts every due schedule's run (not awaiting them); resolves once all have begun. */
  async tick(trigger: RunTrigger = 'cron'): Promise<number> {
    const due = await schedules.due(this.deps.db, this.deps.clock.now());
    await Promise.all(due.map((row) => this.begin(row, trigger).catch((error: unknown) => this.deps.warn?.(`schedule ${row.id}: ${String(error)}`))));
    return due.length;
  }

  /** Run now (the execute route): 409 while a run of it is under way. Resolves once it has begun. */
  async runNow(row: ScheduleRow): Promise<void> {
    if (!(await this.begin(row, 'manual'))) throw conflict('This schedule is already running.');
  }

  /** Claims the schedule and runs it in the background; false when another run holds it. */
  private async begin(row: ScheduleRow, trigger: RunTrigger): Promise<boolean> {
    const { db, clock, config } = this.deps;
    const now = clock.now();
    const next = trigger === 'manual' ? row.next_run_at : (nextRun(cronOf(row), zoneOf(row, config.timezone), now)?.toISOString() ?? null);
    if (!(await schedules.claim(db, row.id, next))) return false;
    const run = await schedules.insertRun(db, row.id, trigger, now);
    const work = this.run({ ...row, next_run_at: next }, run.id, trigger).catch(async (error: unknown) => {
      this.deps.warn?.(`schedule ${row.id} failed: ${String(error)}`);
      await this.finish(row.id, run.id, 'failed', 'The panel could not run it.', []);
    });
    this.inFlight.add(work);
    this.running.add(row.id);
    void work.finally(() => {
      this.inFlight.delete(work);
      this.running.delete(row.id);
    });
    return true;
  }

  private async run(row: ScheduleRow, runId: number, trigger: RunTrigger): Promise<void> {
    const { db, clock } = this.deps;
    const actor: Actor = { type: 'schedule', id: row.id, name: row.name };
    const server = await servers.findById(db, row.server_id);
    const node = server && (await nodes.findById(db, server.node_id));
    if (!server || !node) return this.finish(row.id, runId, 'failed', 'The server is gone.', []);
    const daemon = this.deps.nodes.forNode(node);
    const action: ServerAction = { db, clock, server, daemon, actor };
    if (trigger !== 'manual') {
      await logActivity(
        db,
        actorActivity(actor, server.id, 'server:schedule.execute', { name: row.name, trigger }, clock.now(), [{ type: 'schedule', id: row.id }]),
      );
    }
    if (row.only_when_online === 1) {
      const state = (await daemon.process?.state(server.uuid)) ?? 'offline';
      if (state === 'offline' || state === 'stopping') return this.finish(row.id, runId, 'skipped', 'The server was not running.', []);
    }
    const tasks = await schedules.tasksOf(db, [row.id]);
    if (tasks.length === 0) return this.finish(row.id, runId, 'skipped', 'It has no tasks.', []);
    const results: TaskOutcome[] = [];
    let halted: string | null = null;
    for (const [i, task] of tasks.entries()) {
      const outcome = (o: TaskOutcome['outcome'], reason: string | null): TaskOutcome => ({
        task_id: task.id,
        sequence_id: task.sequence_id,
        action: task.action,
        outcome: o,
        reason,
        at: clock.now().toISOString(),
      });
      // A first task without an offset acts on what was just checked; any other looks again after its wait.
      const fresh = i === 0 && task.time_offset === 0;
      if (halted === null && !fresh) {
        await schedules.setQueued(db, [task.id], true);
        await (this.deps.sleep ?? realSleep)(task.time_offset * 1000);
        await schedules.setQueued(db, [task.id], false);
        if (this.stopped) return; // the next start marks it interrupted
        halted = await this.haltReason(row.id, server.id, trigger);
      }
      if (halted !== null) {
        results.push(outcome('skipped', halted));
        continue;
      }
      try {
        await this.act(fresh ? action : { ...action, server: (await servers.findById(db, server.id)) ?? server }, task);
        results.push(outcome('done', null));
      } catch (error) {
        results.push(outcome('failed', error instanceof Error ? error.message : String(error)));
        if (task.continue_on_failure !== 1) halted = 'An earlier task failed.';
      }
      // Progress for a page that watches the run; the last task's comes with the end.
      if (i < tasks.length - 1) await schedules.updateRun(db, runId, { tasks: JSON.stringify(results) });
    }
    const failed = results.some((r) => r.outcome === 'failed');
    return this.finish(row.id, runId, failed ? 'failed' : 'done', failed ? 'A task failed.' : null, results);
  }

  /** Why the rest of a run stops: the schedule deleted or (for a timed run) turned off, the server in a state that refuses actions. */
  private async haltReason(scheduleId: number, serverId: number, trigger: RunTrigger): Promise<string | null> {
    const schedule = await schedules.findById(this.deps.db, scheduleId);
    if (!schedule) return 'The schedule was deleted.';
    if (trigger !== 'manual' && schedule.is_active !== 1) return 'The schedule was turned off.';
    const server = await servers.findById(this.deps.db, serverId);
    if (!server) return 'The server is gone.';
    if (server.status !== null) return `The server is ${server.status.replace(/_/g, ' ')}.`;
    return null;
  }

  private async act(action: ServerAction, task: TaskRow): Promise<void> {
    if (task.action === 'command') {
      // One console line, whatever a row saved before the route refused line breaks holds.
      if (/[\r\n\0]/.test(task.payload)) throw new Error('A command task sends one console line; this one holds a line break or a NUL.');
      return sendCommand(action, task.payload);
    }
    if (task.action === 'power') return sendPower(action, task.payload as PowerSignal);
    // A backup at the server's limit replaces its oldest unlocked one, as the reference's schedules do.
    const limit = action.server.backup_limit ?? 0;
    if (limit > 0 && (await backups.countNotFailed(action.db, action.server.id)) >= limit) {
      const oldest = await backups.oldestUnlocked(action.db, action.server.id);
      if (oldest) await removeBackup(action, oldest);
    }
    const ignored = task.payload
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '');
    await startBackup(
      action,
      {
        name: `Scheduled backup (${action.actor.type === 'schedule' ? action.actor.name : 'schedule'})`,
        ignored,
        locked: false,
        requestedLock: false,
      },
      this.deps.config.backupThrottle,
    );
  }

  private async finish(scheduleId: number, runId: number, outcome: string, reason: string | null, results: TaskOutcome[]): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock.now().toISOString();
    await schedules.updateRun(db, runId, { outcome, reason, tasks: JSON.stringify(results), finished_at: now });
    await schedules.release(db, scheduleId, now);
    // Now and then rather than each run: the runs kept only need to stay bounded.
    if (runId % 10 === 0) await schedules.pruneRuns(db, scheduleId, RUNS_KEPT);
  }
}
