import { describe, expect } from 'vitest';
import { test } from '../test/fixtures';
import type { NodeHealth } from '../daemon/wings/system';
import { createNode } from './nodes';
import { nodeHealthMonitor } from './node-health';

describe('the health of remote nodes', () => {
  test('keeps the version and when a node was last seen once it stops answering', async ({ panel }) => {
    const node = await createNode(panel.db, panel.nodes, {
      name: 'eu-2',
      fqdn: 'eu-2.example.com',
      scheme: 'https',
      daemonPort: 8080,
      sftpPort: 2022,
      ports: null,
      ip: null,
      memory: 0,
      disk: 0,
    });
    let answer: NodeHealth = { reachable: true, version: '1.11.13' };
    const asked: string[] = [];
    const monitor = nodeHealthMonitor({
      db: panel.db,
      daemons: panel.nodes,
      now: () => panel.clock.now(),
      check: async (url) => {
        asked.push(url);
        return answer;
      },
    });
    await monitor.checkAll();
    const seenAt = panel.clock.now().toISOString();
    expect(asked).toEqual(['https://eu-2.example.com:8080']);
    expect(monitor.get(node.id)).toEqual({ reachable: true, version: '1.11.13', last_seen: seenAt, checked_at: seenAt, reason: null });
    panel.clock.advance(30_000);
    answer = { reachable: false, reason: 'connect ECONNREFUSED' };
    await monitor.checkAll();
    expect(monitor.get(node.id)).toEqual({
      reachable: false,
      version: '1.11.13',
      last_seen: seenAt,
      checked_at: panel.clock.now().toISOString(),
      reason: 'connect ECONNREFUSED',
    });
  });

  test('asks again when someone looks, at most once in 5 seconds, and not before a round has ended', async ({ panel }) => {
    await createNode(panel.db, panel.nodes, {
      name: 'eu-3',
      fqdn: 'eu-3.example.com',
      scheme: 'https',
      daemonPort: 8080,
      sftpPort: 2022,
      ports: null,
      ip: null,
      memory: 0,
      disk: 0,
    });
    let asked = 0;
    let answered = () => undefined as void;
    const monitor = nodeHealthMonitor({
      db: panel.db,
      daemons: panel.nodes,
      now: () => panel.clock.now(),
      intervalMs: 3_600_000,
      check: async () => {
        asked += 1;
        await new Promise<void>((resolve) => (answered = resolve));
        return { reachable: true, version: '1.11.13' };
      },
    });
    const settled = () => new Promise((resolve) => setTimeout(resolve, 20));
    monitor.start();
    await settled();
    expect(asked).toBe(1);
    panel.clock.advance(10_000);
    // A round still running is not started twice.
    monitor.refresh();
    await settled();
    expect(asked).toBe(1);
    answered();
    await settled();
    monitor.refresh();
    await settled();
    expect(asked).toBe(2);
    answered();
    await settled();
    // Within 5 seconds of the last round's start: nothing new.
    panel.clock.advance(4_000);
    monitor.refresh();
    await settled();
    expect(asked).toBe(2);
    panel.clock.advance(2_000);
    monitor.refresh();
    await settled();
    expect(asked).toBe(3);
    answered();
    monitor.stop();
  });
});
