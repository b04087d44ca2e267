import fs from 'node:fs/promises';
import path from 'node:path';
import type { Daemon } from './types';

/** The local daemon keeps each server's volume at `<data dir>/volumes/<uuid>`. */
export class LocalDaemon implements Daemon {
  readonly volumesDir: string;

  constructor(dataDir: string) {
    this.volumesDir = path.join(dataDir, 'volumes');
  }

  volumePath(serverUuid: string): string {
    if (!/^[0-9a-f-]{36}$/.test(serverUuid)) throw new Error(`Not a server uuid: ${serverUuid}`);
    return path.join(this.volumesDir, serverUuid);
  }

  async createVolume(serverUuid: string): Promise<void> {
    await fs.mkdir(this.volumePath(serverUuid), { recursive: true, mode: 0o755 });
  }
}
