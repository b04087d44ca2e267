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
});
