/// <reference types="vitest/config" />
import os from 'node:os';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { defineConfig, type Plugin } from 'vite';
import preact from '@preact/preset-vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/**
 * Message catalogues (`src/<feature>/locales/<locale>.json`, ICU messages) reach the SPA compiled into
 * Lingui's form, so the browser needs no ICU parser; a message that does not parse fails the build.
 */
function compiledCatalogues(): Plugin {
  return {
    name: 'aerie-compiled-catalogues',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/src\/.+\/locales\/[\w-]+\.json$/.test(id)) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(Object.entries(messages).map(([key, message]) => [key, compileMessageOrThrow(message)]));
      return { code: `export default ${JSON.stringify(compiled)};`, map: null, moduleType: 'js' };
    },
  };
}

const apiTarget = process.env.AERIE_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  // The SPA renders with Preact through its React compatibility layer (about 55 KB less on every
  // page, see docs/architecture.md); component tests render the same code with React.
  plugins: [compiledCatalogues(), process.env.VITEST ? react() : preact({ prerender: { enabled: false } }), tailwindcss()],
  server: {
    // `npm run dev` serves the SPA with hot reload and forwards the API to a running `npm start`.
    proxy: { '/api': apiTarget, '/auth': apiTarget, '/sanctum': apiTarget },
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 1200 },
  test: {
    environment: 'node',
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on CI's two, one, and the files ran one
    // after another. Most of their time is spent waiting on child processes (sandboxes, the CLI,
    // MariaDB), so two share two cores well.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 20_000,
    // Two projects so that only the SPA's tests load the DOM matchers; files opt into jsdom with
    // a `// @vitest-environment jsdom` comment.
    projects: [
      { extends: true, test: { name: 'spa', include: ['src/**/*.test.{ts,tsx}'], setupFiles: ['src/test/setup.ts'] } },
      // The server's files share their worker's loaded modules (isolate: false): each file made
      // its own panel already, and loading the server's modules anew for each of ~150 files took
      // over a minute of CI. Its modules keep no per-panel state at module level.
      {
        extends: true,
        test: { name: 'server', include: ['server/**/*.test.ts'], globalSetup: ['server/test/vitest-global-setup.ts'], isolate: false },
      },
    ],
  },
});
