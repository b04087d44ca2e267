// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ScheduleRun } from '../../contract/schedules';
import {
  json,
  makeServer,
  renderServerRoutes,
  serverDocument,
  stubFetch,
  testAccount,
  withCatalogue,
  type FetchCall,
} from '../../test/server-test-fixtures';
import { SchedulePage } from './schedule-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const BASE = '/api/client/servers/abcd1234-5678-4abc-8def-0123456789ab/schedules/1';
const task = (id: number, sequence: number, action: string, payload: string, time_offset = 0) => ({
  object: 'schedule_task',
  attributes: {
    id,
    sequence_id: sequence,
    action,
    payload,
    time_offset,
    is_queued: false,
    continue_on_failure: false,
    created_at: '2026-01-01T00:00:00+00:00',
    updated_at: null,
  },
});
const TASKS = [task(11, 1, 'command', 'say Restarting in 60 seconds'), task(12, 2, 'power', 'restart', 60), task(13, 3, 'backup', 'logs/\n*.tmp')];

function scheduleDoc(over: { is_processing?: boolean; runs?: ScheduleRun[]; tasks?: typeof TASKS } = {}) {
  return {
    object: 'server_schedule',
    attributes: {
      id: 1,
      name: 'Restart every day at 04:00',
      cron: { day_of_week: '*', day_of_month: '*', month: '*', hour: '4', minute: '0' },
      is_active: true,
      is_processing: over.is_processing ?? false,
      only_when_online: false,
      last_run_at: null,
      next_run_at: '2030-01-01T04:00:00+00:00',
      created_at: '2026-01-01T00:00:00+00:00',
      updated_at: null,
      timezone: null,
      effective_timezone: 'Europe/Berlin',
      runs: over.runs ?? [],
      relationships: { tasks: { object: 'list', data: over.tasks ?? TASKS } },
    },
  };
}

/** A panel answering the schedule's page; `detail` gives the document for each GET in turn (the last one repeats). */
function stubPanel(permissions: string[], details = [scheduleDoc()], writeReply?: (call: FetchCall) => Response) {
  const server = serverDocument(makeServer({ feature_limits: { databases: 2, allocations: null, backups: 3 } }), {
    is_server_owner: permissions.includes('*'),
    user_permissions: permissions,
  });
  const writes: FetchCall[] = [];
  let reads = 0;
  stubFetch(
    withCatalogue((url, call) => {
      if (!url.pathname.startsWith(BASE)) return json(200, server);
      if (call.method === 'GET') return json(200, details[Math.min(reads++, details.length - 1)]);
      const rel = { ...call, path: url.pathname.slice(BASE.length) };
      writes.push(rel);
      if (writeReply) return writeReply(rel);
      if (rel.path === '/execute') return json(202, []);
      return json(200, TASKS[0]);
    }),
  );
  return { writes };
}

const render = () => renderServerRoutes('/server/abcd1234/schedules/1', { 'schedules/:scheduleId': () => <SchedulePage /> }, testAccount);

describe('SchedulePage', () => {
  it('shows the schedule in words with its zone and next runs, and each task in words with its offset', async () => {
    stubPanel(['*']);
    render();
    expect(await screen.findByRole('heading', { name: 'Restart every day at 04:00' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText(/Every day at 0?4:00/)).toBeInTheDocument();
    expect(screen.getByText(/Europe\/Berlin/)).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Next runs' })).getAllByRole('listitem')).toHaveLength(3);
    const tasks = within(screen.getByRole('list', { name: 'Tasks' })).getAllByRole('listitem');
    expect(tasks.map((t) => t.getAttribute('aria-label'))).toEqual([
      'Task 1: Send command `say Restarting in 60 seconds`',
      'Task 2: Restart the server',
      'Task 3: Create a backup ignoring 2 patterns',
    ]);
    expect(tasks[1]).toHaveTextContent('60 s after the previous task');
    expect(screen.getByText('No runs yet')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Restart every day at 04:00 · Schedules · Survival · Aerie'));
  });

  it('moves a task up through its own update with the new sequence_id', async () => {
    const panel = stubPanel(['*']);
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Move task 2 up' }, { timeout: 5000 }));
    await waitFor(() => expect(panel.writes).toHaveLength(1));
    expect(panel.writes[0]).toEqual({
      method: 'POST',
      path: '/tasks/12',
      body: { action: 'power', payload: 'restart', time_offset: 60, continue_on_failure: false, sequence_id: 1 },
    });
    expect(screen.getByRole('button', { name: 'Move task 1 up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move task 3 down' })).toBeDisabled();
  });

  it('adds a task: power offers only the signals, and a 422 lands on the field it names', async () => {
    const panel = stubPanel(['*'], [scheduleDoc()], () =>
      json(422, {
        errors: [
          {
            code: 'ValidationException',
            status: '422',
            detail: 'The payload field is required unless action is backup.',
            source: { field: 'payload' },
          },
        ],
      }),
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Add task' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Add task' });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Action' }), { target: { value: 'power' } });
    const signal = within(dialog).getByRole('combobox', { name: 'Signal' });
    expect(
      within(signal)
        .getAllByRole('option')
        .map((o) => o.getAttribute('value')),
    ).toEqual(['start', 'stop', 'restart', 'kill']);
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Action' }), { target: { value: 'backup' } });
    expect(within(dialog).getByText(/This server may keep 3 backups; at the limit the oldest unlocked one is removed first/)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Action' }), { target: { value: 'command' } });
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Time offset (seconds)' }), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(panel.writes).toHaveLength(1));
    expect(panel.writes[0]).toMatchObject({ method: 'POST', path: '/tasks', body: { action: 'command', payload: '', time_offset: 5 } });
    const command = within(dialog).getByRole('textbox', { name: 'Command' });
    await waitFor(() => expect(command).toHaveAttribute('aria-invalid', 'true'));
    expect(within(dialog).getByText('The payload field is required unless action is backup.')).toBeInTheDocument();
  });

  it('warns on a command task when the user lacks control.console', async () => {
    stubPanel(['schedule.read', 'schedule.update']);
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit task 1' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit task' });
    expect(within(dialog).getByRole('textbox', { name: 'Command' })).toHaveValue('say Restarting in 60 seconds');
    expect(within(dialog).getByText(/You do not have the control.console permission/)).toBeInTheDocument();
  });

  it('runs it now after asking, then follows the run each second to its outcome', async () => {
    const running: ScheduleRun = {
      id: 5,
      trigger: 'manual',
      outcome: 'running',
      reason: null,
      tasks: [],
      started_at: '2026-01-01T04:00:00+00:00',
      finished_at: null,
    };
    const first = { task_id: 11, sequence_id: 1, action: 'command', outcome: 'done' as const, reason: null, at: '2026-01-01T04:00:00+00:00' };
    const panel = stubPanel(
      ['*'],
      [
        scheduleDoc(),
        scheduleDoc({ is_processing: true, runs: [{ ...running, tasks: [first] }] }),
        scheduleDoc({
          runs: [
            {
              ...running,
              outcome: 'failed',
              reason: 'A task failed.',
              finished_at: '2026-01-01T04:01:00+00:00',
              tasks: [
                first,
                { ...first, task_id: 12, sequence_id: 2, action: 'power', outcome: 'failed', reason: 'The node is unreachable.' },
                { ...first, task_id: 13, sequence_id: 3, action: 'backup', outcome: 'skipped', reason: 'An earlier task failed.' },
              ],
            },
          ],
        }),
      ],
    );
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Run now' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Run now' });
    expect(dialog).toHaveTextContent('Run “Restart every day at 04:00” now? Its tasks run in order, each after its offset.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Run now' }));
    await waitFor(() => expect(panel.writes).toEqual([{ method: 'POST', path: '/execute', body: undefined }]));
    const current = await screen.findByRole('region', { name: 'Current run' });
    // Both read from the same render: the next poll may already have come when a loaded machine gets here.
    await waitFor(() => {
      expect(current).toHaveTextContent('Running: 1 of 3 tasks finished');
      expect(
        within(current)
          .getAllByRole('listitem')
          .map((l) => l.getAttribute('aria-label')),
      ).toEqual(['Task 1: done', 'Task 2: running', 'Task 3: waiting']);
    });
    expect(screen.getByRole('button', { name: 'Run now' })).toBeDisabled();
    await waitFor(() => expect(current).toHaveTextContent('Run finished'), { timeout: 4000 });
    expect(current).toHaveTextContent('The node is unreachable.');
    expect(
      within(current)
        .getAllByRole('listitem')
        .map((l) => l.getAttribute('aria-label')),
    ).toEqual(['Task 1: done', 'Task 2: failed', 'Task 3: skipped']);
    const history = screen.getByRole('list', { name: 'Runs' });
    const past = within(history).getByRole('listitem', { name: /^Run now, started .*: failed$/ });
    expect(past).toHaveTextContent('A task failed.');
    // Each task's outcome and reason, once opened.
    expect(within(past).getByText('The node is unreachable.')).toBeInTheDocument();
  });

  it('asks before deleting the schedule, then goes back to the list', async () => {
    const panel = stubPanel(['*'], [scheduleDoc()], () => new Response(null, { status: 204 }));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete schedule' });
    expect(panel.writes).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(panel.writes).toEqual([{ method: 'DELETE', path: '', body: undefined }]));
    expect(await screen.findByText('Schedules page')).toBeInTheDocument();
  });

  it('keeps Run now off for a schedule without tasks', async () => {
    stubPanel(['*'], [scheduleDoc({ tasks: [] })]);
    render();
    expect(await screen.findByRole('button', { name: 'Run now' }, { timeout: 5000 })).toBeDisabled();
    expect(screen.getByText('No tasks yet')).toBeInTheDocument();
  });

  it('a subuser with schedule.read alone sees the tasks and the runs, and no controls', async () => {
    stubPanel(['schedule.read']);
    render();
    await screen.findByRole('list', { name: 'Tasks' }, { timeout: 5000 });
    for (const name of ['Run now', 'Edit', 'Delete', 'Add task', /^Move task/, /^Edit task/, /^Delete task/])
      expect(screen.queryByRole('button', { name })).toBeNull();
  });
});
