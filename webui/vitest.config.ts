import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'

export default defineConfig({
  plugins: [react()],
  define: {
    // Footer copyright year as rendered into the prerendered HTML (see Footer.tsx).
    __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()),
  },
  resolve: {
    // Test helpers and fixtures (test/) are imported as `@test/...`. Only the tests know this
    // alias: vite.config.ts does not, so app code importing a helper fails the build.
    alias: { '@test': fileURLToPath(new URL('./test', import.meta.url)) },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    css: false,
    // A hang guard, not a speed check: page tests that wait on lazy chunks and timers take a
    // few seconds on a loaded 2-core CI machine, past the default 5 s.
    testTimeout: 20_000,
  },
})
