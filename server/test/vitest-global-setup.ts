import fs from 'node:fs';
import path from 'node:path';
import { bundleEntry } from './bundle';

/**
 * Bundles Aerie's node and the admin CLI once per Vitest run: the node tests start the node a few
 * dozen times, the CLI's process tests the CLI a dozen, and each start through tsx cost two to
 * four seconds of CPU. Test workers find them through AERIE_NODE_BUNDLE and AERIE_CLI_BUNDLE (they
 * are forked after this runs); without them they run tsx.
 */
export default function setup(): () => void {
  const dir = path.resolve('.tmp', `vitest-${process.pid}`);
  const node = path.join(dir, 'node.mjs');
  if (bundleEntry('server/node-main.ts', node)) process.env.AERIE_NODE_BUNDLE = node;
  const cli = path.join(dir, 'cli.mjs');
  if (bundleEntry('server/cli.ts', cli)) process.env.AERIE_CLI_BUNDLE = cli;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
