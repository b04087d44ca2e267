/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const apiTarget = process.env.AERIE_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    // `npm run dev` serves the SPA with hot reload and forwards the API to a running `npm start`.
    proxy: { '/api': apiTarget, '/auth': apiTarget, '/sanctum': apiTarget },
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 1200 },
  test: {
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    // Two projects so that only the SPA's tests load the DOM matchers; files opt into jsdom with
    // a `// @vitest-environment jsdom` comment.
    projects: [
      { extends: true, test: { name: 'spa', include: ['src/**/*.test.{ts,tsx}'], setupFiles: ['src/test/setup.ts'] } },
      { extends: true, test: { name: 'server', include: ['server/**/*.test.ts'] } },
    ],
  },
});
