import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupTokenSchema, verifyToken } from '../tokens';
import { startWingsDouble, wingsError, wingsUtilization, type WingsDouble } from '../../test/wings-double';
import { outcome } from '../../test/daemon-contract/support';
import { WingsNode } from '.';

/* Wings fidelity of a server's life, power, stats and backups (peers.md §4.3, §4.4). */

let wings: WingsDouble;
let node: WingsNode;
const s = randomUUID();
const json = (body: Buffer): unknown => JSON.parse(body.toString('utf8'));

beforeEach(async () => {
  wings = await startWingsDouble();
  node = new WingsNode({ name: 'node-2', baseUrl: wings.url, token: () => wings.token });
});
afterEach(() => wings.close());

describe('servers', () => {
  it("creates with Wings' body and answers on its 202; refuses what Wings refuses", async () => {
    await node.servers.create(s);
    const request = wings.last('POST /api/servers');
    expect(request.headers.authorization).toBe(`Bearer ${wings.token}`);
    expect(json(request.body)).toEqual({ uuid: s, start_on_completion: false });
    wings.answer('POST /api/servers', wingsError(422, 'The data provided in the request could not be validated.'));
    expect(await outcome(node.servers.create(randomUUID()))).toBe('bad_request');
    // A name that is no uuid names no server: not asked.
    const asked = wings.requests.length;
    expect(await outcome(node.servers.create('not-a-uuid'))).toBe('not_found');
    expect(wings.requests).toHaveLength(asked);
  });

  it('syncs, reinstalls, deletes (a server Wings does not know is gone) and denies socket tokens', async () => {
    await node.servers.sync(s);
    const sync = wings.last('POST /api/servers/:server/sync');
    expect([sync.path, sync.body.length]).toEqual([`/api/servers/${s}/sync`, 0]);
    wings.answer('POST /api/servers/:server/sync', wingsError(404, 'The requested resource does not exist on this instance.'));
    expect(await outcome(node.servers.sync(s))).toBe('not_found');
    await node.servers.reinstall(s);
    wings.answer(
      'POST /api/servers/:server/reinstall',
      wingsError(409, 'Cannot execute server reinstall event while another power action is running.'),
    );
    expect(await outcome(node.servers.reinstall(s))).toBe('conflict');
    await node.servers.delete(s);
    expect(wings.last('DELETE /api/servers/:server').path).toBe(`/api/servers/${s}`);
    wings.answer('DELETE /api/servers/:server', wingsError(404, 'The requested resource does not exist on this instance.'));
    expect(await outcome(node.servers.delete(s))).toBe('ok');
    wings.answer('DELETE /api/servers/:server', wingsError(500, 'An unexpected error was encountered.'));
    expect(await outcome(node.servers.delete(s))).toBe('unavailable');
    await node.servers.revokeSocketTokens(s, ['0123abcd', 'ffee']);
    expect(json(wings.last('POST /api/servers/:server/ws/deny').body)).toEqual({ jtis: ['0123abcd', 'ffee'] });
  });

  it("asks the source to send a transfer in Wings' body; one already under way is a conflict", async () => {
    const target = { url: 'https://node-2.example:8080/api/transfers', token: 'Bearer eyJ.x.y' };
    await node.transfers.send(s, target);
    expect(wings.last('POST /api/servers/:server/transfer').path).toBe(`/api/servers/${s}/transfer`);
    expect(json(wings.last('POST /api/servers/:server/transfer').body)).toEqual({ ...target, server: { uuid: s, start_on_completion: false } });
    wings.answer('POST /api/servers/:server/transfer', wingsError(409, 'A transfer is already in progress for this server.'));
    expect(await outcome(node.transfers.send(s, target))).toBe('conflict');
  });
});

describe('power, commands and stats', () => {
  it("sends power actions and command lines in Wings' bodies; a stopped server's 502 is offline", async () => {
    await node.process.power(s, 'restart');
    expect(json(wings.last('POST /api/servers/:server/power').body)).toEqual({ action: 'restart' });
    wings.answer('POST /api/servers/:server/power', wingsError(400, 'Cannot start or restart a server that is suspended.'));
    expect(await outcome(node.process.power(s, 'start'))).toBe('conflict');
    await node.process.command(s, 'say hello');
    expect(json(wings.last('POST /api/servers/:server/commands').body)).toEqual({ commands: ['say hello'] });
    wings.answer('POST /api/servers/:server/commands', wingsError(502, 'Cannot send commands to a stopped server instance.'));
    expect(await node.process.command(s, 'list').catch((e: unknown) => e)).toMatchObject({
      kind: 'offline',
      message: 'Cannot send commands to a stopped server instance.',
    });
  });

  it("answers the utilization of the server's details, and its state (the last seen when the node does not answer)", async () => {
    expect(await node.stats.resources(s)).toEqual(wingsUtilization);
    expect(wings.last('GET /api/servers/:server').path).toBe(`/api/servers/${s}`);
    expect(await node.process.state(s)).toBe('running');
    wings.answer('GET /api/servers/:server', wingsError(500, 'An unexpected error was encountered.'));
    expect(await node.process.state(s)).toBe('running');
    expect(await node.process.state(randomUUID())).toBe('offline');
    wings.answer('GET /api/servers/:server', {
      status: 200,
      json: { state: 'stopping', is_suspended: false, utilization: { ...wingsUtilization, state: 'running' } },
    });
    expect((await node.stats.resources(s)).state).toBe('stopping');
    wings.answer('GET /api/servers/:server', { status: 200, json: { state: 'asleep', is_suspended: false, utilization: wingsUtilization } });
    expect(await outcome(node.stats.resources(s))).toBe('unavailable');
  });

  it("tells the node's version from /api/system, or why it does not answer", async () => {
    expect(await node.health()).toEqual({ reachable: true, version: '1.11.13' });
    wings.answer('GET /api/system', wingsError(403, 'You are not authorized to access this endpoint.'));
    expect(await node.health()).toEqual({ reachable: false, reason: "The node node-2 refused the panel's token (HTTP 403)." });
  });
});

describe('backups (the wings adapter)', () => {
  const b = randomUUID();

  it('creates with the ignore lines joined, restores with truncate, deletes (404 stays not_found)', async () => {
    await node.backups.create(s, b, ['*.log', 'cache/']);
    const create = wings.last('POST /api/servers/:server/backup');
    expect(json(create.body)).toEqual({ adapter: 'wings', uuid: b, ignore: '*.log\ncache/' });
    await node.backups.restore(s, b, { truncate: true });
    const restore = wings.last('POST /api/servers/:server/backup/:backup/restore');
    expect(restore.path).toBe(`/api/servers/${s}/backup/${b}/restore`);
    expect(json(restore.body)).toEqual({ adapter: 'wings', truncate_directory: true, download_url: '' });
    await node.backups.delete(s, b);
    expect(wings.last('DELETE /api/servers/:server/backup/:backup').path).toBe(`/api/servers/${s}/backup/${b}`);
    wings.answer('DELETE /api/servers/:server/backup/:backup', wingsError(404, 'The requested backup was not found on this server.'));
    expect(await outcome(node.backups.delete(s, b))).toBe('not_found');
  });

  it("downloads through the node's /download/backup on a token signed with the node's key, scoped as newer Wings require", async () => {
    const { size, stream } = await node.backups.open(s, b);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('backup archive bytes');
    expect(size).toBe(20);
    const token = wings.last('GET /download/backup').query.get('token') ?? '';
    const claims = await verifyToken(token, wings.token, backupTokenSchema, new Date());
    expect(claims).toMatchObject({ server_uuid: s, backup_uuid: b, scope: 'backup-download' });
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(payload).toMatchObject({ scope: 'backup-download', aud: wings.url });
    wings.answer('GET /download/backup', wingsError(404, 'The requested resource was not found on this server.'));
    expect(await outcome(node.backups.open(s, b))).toBe('not_found');
  });
});
