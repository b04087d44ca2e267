import os from 'node:os';
import path from 'node:path';
import { build, type Rolldown } from 'vite';
import { REPO_ROOT } from '../server/lib/spa-build';

/** The npm package a bundled module comes from, or `src` / `other`. */
function packageOf(id: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
  if (match?.[1]) return match[1];
  return id.startsWith(path.join(REPO_ROOT, 'src')) ? 'src' : 'other';
}

/**
 * For each built chunk (`assets/x-hash.js`), the share of its code that comes from packages
 * matching `library`. Chunk names say nothing (a shared library chunk is `dist-<hash>.js`), so
 * this builds the SPA again in memory with the same config and reads which modules went where;
 * the build is deterministic, so the names match dist/.
 */
export async function libraryShare(library: RegExp): Promise<Map<string, number>> {
  const result = await build({
    root: REPO_ROOT,
    configFile: path.join(REPO_ROOT, 'vite.config.ts'),
    logLevel: 'silent',
    build: { write: false, outDir: path.join(os.tmpdir(), 'aerie-bench-vite'), emptyOutDir: false },
  });
  const outputs: Rolldown.RolldownOutput[] = (Array.isArray(result) ? result : [result]).filter((o): o is Rolldown.RolldownOutput => 'output' in o);
  const shares = new Map<string, number>();
  for (const output of outputs) {
    for (const chunk of output.output) {
      if (chunk.type !== 'chunk') continue;
      let all = 0;
      let ours = 0;
      for (const [id, module] of Object.entries(chunk.modules)) {
        all += module.renderedLength;
        if (library.test(packageOf(id))) ours += module.renderedLength;
      }
      shares.set(chunk.fileName, all === 0 ? 0 : ours / all);
    }
  }
  return shares;
}
