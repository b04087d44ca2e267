import { describe, expect } from 'vitest';
import { setServerStatus } from '../services/servers';
import { test } from '../test/fixtures';
import { eventually, makeGame } from '../test/game-support';

/*
 * command and power through the API, against the demo game really running in its sandbox:
 * statuses, permissions per signal, the reference panel's 502 for an offline server, activity.
 */

const it = test.extend('game', async ({ panel }, { onCleanup }) => {
  const game = await makeGame(panel);
  onCleanup(() => panel.daemon.process.stopAll());
  const headers = await panel.bearerHeaders(game.owner);
  const post = (endpoint: 'command' | 'power', body: unknown, as = headers) =>
    panel.app.inject({ method: 'POST', url: `/api/client/servers/${game.server.uuid}/${endpoint}`, headers: as, payload: body as object });
  const resources = (as = headers) => panel.app.inject({ method: 'GET', url: `/api/client/servers/${game.server.uuid}/resources`, headers: as });
  return { ...game, headers, post, resources };
});

describe('power and command', () => {
  it('start, a command and its reply, stop: 204s, the console and the activity log show each', { timeout: 30_000 }, async ({ panel, game }) => {
    const offline = await game.post('command', { command: 'say hi' });
    expect(offline.statusCode).toBe(502);
    expect(offline.json().errors[0]).toMatchObject({ code: 'HttpException', detail: 'Server must be online in order to send commands.' });

    expect((await game.post('power', { signal: ' start ' })).statusCode).toBe(204);
    // Running once the egg's done line (`)! For help, type `) is printed.
    await eventually(async () => panel.daemon.process.state(game.server.uuid) === 'running');
    expect((await game.history()).some((l) => l.includes('For help'))).toBe(true);

    const busy = (await game.resources()).json();
    expect(busy).toMatchObject({ object: 'stats', attributes: { current_state: 'running', is_suspended: false } });
    // A Node program's own memory: its cgroup's figure counts its heap, not the program file others share (as docker stats).
    expect(busy.attributes.resources.memory_bytes).toBeGreaterThan(4 * 1024 * 1024);
    expect(busy.attributes.resources.uptime).toBeGreaterThan(0);
    expect(busy.attributes.resources.disk_bytes).toBeGreaterThan(0);
    expect(busy.attributes.resources.cpu_absolute).toBeGreaterThanOrEqual(0);

    expect((await game.post('command', { command: '   ' })).json().errors[0]).toMatchObject({ status: '422', source: { field: 'command' } });
    expect((await game.post('command', { command: 'say hello' })).statusCode).toBe(204);
    await eventually(async () => (await game.history()).some((l) => l.includes('[Server] hello')));

    expect((await game.post('power', { signal: 'stop' })).statusCode).toBe(204);
    expect(panel.daemon.process.state(game.server.uuid)).toBe('offline');
    const idle = (await game.resources()).json().attributes;
    expect(idle.current_state).toBe('offline');
    expect(idle.resources).toMatchObject({ memory_bytes: 0, cpu_absolute: 0, uptime: 0, network_rx_bytes: 0, network_tx_bytes: 0 });
    expect(await game.events()).toEqual(['server:power.start', 'server:console.command', 'server:power.stop']);
    const command = await panel.db
      .selectFrom('activity_logs')
      .select('properties')
      .where('event', '=', 'server:console.command')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(command.properties)).toEqual({ command: 'say hello' });
  });

  it('takes the permission of each signal; an unknown signal is 403 for a subuser and 422 for the owner', async ({ panel, game }) => {
    const starter = await panel.user();
    await panel.subuser(game.server, starter, ['control.start']);
    const asStarter = await panel.bearerHeaders(starter);
    for (const signal of ['stop', 'kill', 'restart', 'nonsense']) {
      expect((await game.post('power', { signal }, asStarter)).statusCode, signal).toBe(403);
    }
    expect((await game.post('command', { command: 'say x' }, asStarter)).statusCode).toBe(403);
    // Any member reads what the server uses.
    const resources = await game.resources(asStarter);
    expect(resources.statusCode).toBe(200);
    expect(resources.json().attributes.current_state).toBe('offline');
    const unknown = await game.post('power', { signal: 'nonsense' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors[0]).toMatchObject({ detail: 'The selected signal is invalid.', source: { field: 'signal' } });
    expect((await game.post('power', {})).statusCode).toBe(422);
    // Kill of a server that is not running changes nothing and is no error (Wings).
    expect((await game.post('power', { signal: 'kill' })).statusCode).toBe(204);
    expect(await game.events()).toEqual(['server:power.kill']);

    // A signed-in browser without the CSRF header starts nothing.
    const { 'x-xsrf-token': _csrf, ...noCsrf } = await panel.sessionHeaders(game.owner);
    expect((await game.post('power', { signal: 'start' }, noCsrf)).statusCode).toBe(419);
    expect(panel.daemon.process.state(game.server.uuid)).toBe('offline');
    const stranger = await panel.user();
    expect((await game.post('power', { signal: 'start' }, await panel.bearerHeaders(stranger))).statusCode).toBe(404);
    await setServerStatus(panel.db, game.server.uuid, 'suspended', panel.clock.now());
    expect((await game.post('power', { signal: 'start' })).statusCode).toBe(409);
    expect((await game.resources()).statusCode).toBe(409);
    expect(panel.daemon.process.state(game.server.uuid)).toBe('offline');
  });
});
