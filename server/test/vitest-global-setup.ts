import fs from 'node:fs';
import path from 'node:path';
import { bundleEntry } from './bundle';

/**
 * Bundles Aerie's node once per Vitest run: the node tests start it a few dozen times, and each
 * start through tsx cost about two seconds of CPU. Test workers find it through AERIE_NODE_BUNDLE
 * (they are forked after this runs); without it they run tsx.
 */
export default function setup(): () => void {
  const dir = path.resolve('.tmp', `vitest-${process.pid}`);
  const bundle = path.join(dir, 'node.mjs');
  if (bundleEntry('server/node-main.ts', bundle)) process.env.AERIE_NODE_BUNDLE = bundle;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
