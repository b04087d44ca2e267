import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../db';
import { nodes } from '../db/repos';
import { recordLocalSftp } from './local-node';

/* What the overview's sftp_details come from (issue 22 #8). */

describe('the local node’s SFTP address', () => {
  it('is recorded on a panel with no node yet, so servers added later show the port it serves', async () => {
    const db = await openTestDatabase();
    try {
      // PANEL_SEED_DEMO=false: no server, so no node, when SFTP starts listening.
      await recordLocalSftp(db, { host: '0.0.0.0', port: 2299 }, undefined);
      expect((await nodes.first(db))?.sftp_port).toBe(2299);
    } finally {
      await db.destroy();
    }
  });

  it('is port 0 (unavailable) when SFTP could not listen, never the default 2022', async () => {
    const db = await openTestDatabase();
    try {
      await recordLocalSftp(db, { host: '127.0.0.1', port: 2022 }, undefined);
      await recordLocalSftp(db, null, undefined);
      expect((await nodes.first(db))?.sftp_port).toBe(0);
    } finally {
      await db.destroy();
    }
  });
});
