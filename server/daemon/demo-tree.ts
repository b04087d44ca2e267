import type { Daemon } from './types';

/** Gives a demo server a realistic volume (the file-manager issue fills this in). */
export async function writeDemoTree(daemon: Daemon, serverUuid: string): Promise<void> {
  await daemon.createVolume(serverUuid);
}
