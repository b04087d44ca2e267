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

/** For one built chunk: the bytes (rendered, before minification's gzip) of each package in it. */
export type ChunkPackages = Map<string, number>;

/**
 * For each built chunk (`assets/x-hash.js`), how much of its code each package brings. Chunk names
 * say little (a shared library chunk is `chunk-<hash>.js`), so this builds the SPA again in memory
 * with the same config and reads which modules went where; the build is deterministic, so the
 * names match dist/.
 */
export async function chunkPackages(): Promise<Map<string, ChunkPackages>> {
  const result = await build({
    root: REPO_ROOT,
    configFile: path.join(REPO_ROOT, 'vite.config.ts'),
    logLevel: 'silent',
    build: { write: false, outDir: path.join(os.tmpdir(), 'aerie-bench-vite'), emptyOutDir: false },
  });
  const outputs: Rolldown.RolldownOutput[] = (Array.isArray(result) ? result : [result]).filter((o): o is Rolldown.RolldownOutput => 'output' in o);
  const chunks = new Map<string, ChunkPackages>();
  for (const output of outputs) {
    for (const chunk of output.output) {
      if (chunk.type !== 'chunk') continue;
      const packages: ChunkPackages = new Map();
      for (const [id, module] of Object.entries(chunk.modules)) {
        const name = packageOf(id);
        packages.set(name, (packages.get(name) ?? 0) + module.renderedLength);
      }
      chunks.set(chunk.fileName, packages);
    }
  }
  return chunks;
}

/** The share of a chunk's code that comes from packages matching `library` (0 to 1). */
export function libraryShare(packages: ChunkPackages, library: RegExp): number {
  let all = 0;
  let ours = 0;
  for (const [name, bytes] of packages) {
    all += bytes;
    if (library.test(name)) ours += bytes;
  }
  return all === 0 ? 0 : ours / all;
}

/** "react-dom 61%, src 20%, …": the packages that make up at least 3 % of a chunk, largest first. */
export function describePackages(packages: ChunkPackages): string {
  const all = [...packages.values()].reduce((sum, bytes) => sum + bytes, 0);
  if (all === 0) return '';
  const parts = [...packages]
    .sort((a, b) => b[1] - a[1])
    .filter(([, bytes]) => bytes / all >= 0.03)
    .map(([name, bytes]) => `${name} ${Math.round((bytes / all) * 100)}%`);
  return parts.join(', ');
}
