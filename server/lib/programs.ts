import fs from 'node:fs';
import path from 'node:path';

/** An executable `name` in one of `searchPath`'s directories (PATH by default), or null. */
export function findProgram(name: string, searchPath = process.env.PATH ?? ''): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
