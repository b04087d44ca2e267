import type { Db } from '../server/db';
import type { BenchServer } from './panel';
import { startBenchPanel } from './panel';

/*
 * The scheduler under a crowd (`npm run bench -- schedules`; printed, never asserted): SERVERS
 * servers each with one active schedule due every minute, one console-command task each, all
 * made through the admin CLI and the client API. The panel's own scheduler runs them at the next
 * minute; the figure is from that minute to the last task's outcome (target: under 5 s), with the
 * panel's memory before and at its peak. The servers are offline, so each command is refused by
 * the node at once: what is measured is the scheduler's own work (claims, runs, activity), not
 * the servers'.
 */

const SERVERS = 1000;
const OWNER = 'schedules@aerie.test';
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export async function benchSchedules(): Promise<string[]> {
  const panel = await startBenchPanel();
  const out: string[] = [];
  try {
    await panel.cli(['user:create', '--email', OWNER, '--username', 'schedules', '--password', 'schedules-password']);
    const { servers } = await panel.cli<{ servers: BenchServer[] }>([
      'server:create',
      '--owner',
      OWNER,
      '--name',
      'Scheduled',
      '--count',
      String(SERVERS),
    ]);
    const { token } = await panel.cli<{ token: string }>(['apikey:create', '--email', OWNER, '--description', 'bench']);
    const t0 = performance.now();
    for (const server of servers) {
      const base = `/api/client/servers/${server.uuid}/schedules`;
      const created = await panel.api(token, 'POST', base, {
        name: 'Every minute',
        minute: '*',
        hour: '*',
        day_of_month: '*',
        month: '*',
        day_of_week: '*',
        is_active: true,
      });
      const id = (JSON.parse(created.body) as { attributes: { id: number } }).attributes.id;
      await panel.api(token, 'POST', `${base}/${id}/tasks`, { action: 'command', payload: 'say hello', time_offset: 0 });
    }
    out.push(
      `schedules: ${SERVERS} servers, one schedule each (every minute, one command task), made in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    await panel.app.scheduler.start();
    // start() ran what was already due; the next minute is the measured one.
    await settle(panel.app.scheduler.inFlight);
    const minute = Math.ceil(Date.now() / 60_000) * 60_000;
    const startedBefore = new Set((await runsOf(panel.db)).map((r) => r.id));
    let last = 0;
    for (const deadline = minute + 120_000; Date.now() < deadline; await sleep(100)) {
      const runs = (await runsOf(panel.db)).filter((r) => !startedBefore.has(r.id));
      const done = runs.filter((r) => r.finished_at !== null);
      if (done.length >= SERVERS) {
        last = Math.max(...done.map((r) => Date.parse((JSON.parse(r.tasks) as { at: string }[])[0]?.at ?? r.finished_at ?? '')));
        break;
      }
    }
    clearInterval(sampler);
    panel.app.scheduler.stop();
    if (last === 0) throw new Error(`not every schedule ran within two minutes of ${new Date(minute).toISOString()}`);
    const seconds = (last - minute) / 1000;
    out.push(`  from the minute to the last task's outcome: ${seconds.toFixed(2)} s (target: under 5 s) ${seconds < 5 ? 'ok' : 'OVER TARGET'}`);
    out.push(`  panel memory: rss ${mb(before)} before, ${mb(peak)} peak (+${mb(peak - before)})`);
  } finally {
    await panel.daemon.process.stopAll();
    await panel.close();
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function settle(flight: Set<Promise<void>>): Promise<void> {
  while (flight.size > 0) await Promise.all([...flight]);
}

async function runsOf(db: Db) {
  return db.selectFrom('schedule_runs').select(['id', 'finished_at', 'tasks']).execute();
}
