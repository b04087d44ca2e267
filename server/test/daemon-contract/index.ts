import { afterEach, beforeEach, describe } from 'vitest';
import { describeFiles } from './files';
import { describeQuota } from './quota';
import { describeServers } from './servers';
import type { DaemonUnderTest, MakeDaemon } from './support';

export type { DaemonUnderTest, MakeDaemon } from './support';
export { testConfiguration } from './support';

/**
 * The behaviour every node daemon owes the panel, as a Vitest suite: run it from a `*.test.ts`
 * with a factory for the implementation under test. Each test gets a fresh daemon and creates its
 * own servers; implementation details (block accounting, on-disk races) are tested beside each
 * implementation instead.
 */
export function describeNodeDaemon(name: string, make: MakeDaemon): void {
  describe(`NodeDaemon contract: ${name}`, () => {
    let current: DaemonUnderTest | undefined;
    beforeEach(async () => {
      current = await make();
    });
    afterEach(async () => {
      await current?.close();
      current = undefined;
    });
    const under = (): DaemonUnderTest => {
      if (!current) throw new Error('The daemon under test was not made.');
      return current;
    };
    describeFiles(under);
    describeQuota(under);
    describeServers(under);
  });
}
