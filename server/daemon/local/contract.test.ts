import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigurationStore } from '../../test/configuration-store';
import { describeNodeDaemon } from '../../test/daemon-contract';
import { LocalDaemon } from '.';

describeNodeDaemon('LocalDaemon', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-contract-'));
  // Listener failures are part of the suite; they are expected, not worth printing.
  const store = new ConfigurationStore();
  const daemon = new LocalDaemon(dataDir, { log: () => undefined, configurationSource: store.source });
  return {
    daemon,
    configure: (configuration) => store.apply(daemon, configuration),
    plantLink: async (server, at, target) => {
      const where = path.join(daemon.volumePath(server), at);
      fs.mkdirSync(path.dirname(where), { recursive: true });
      fs.symlinkSync(target, where);
    },
    close: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
});
