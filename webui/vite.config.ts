import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'

// react-router 7's package exports always point at its *development* build (extra dev-only
// checks and warnings). Production bundles use its production build instead (~2 kB gzip less).
const rrProd = (file: string) => fileURLToPath(new URL(`./node_modules/react-router/dist/production/${file}`, import.meta.url))

// https://vite.dev/config/
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^react-router$/, replacement: rrProd('index.mjs') },
      { find: /^react-router\/dom$/, replacement: rrProd('dom-export.mjs') },
    ],
  },
  define: {
    // Footer copyright year as rendered into the prerendered HTML (see Footer.tsx).
    __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()),
  },
  build: {
    // scripts/prerender.mjs reads .vite/manifest.json to add <link rel="modulepreload"> per route.
    manifest: true,
    // Never inline assets as data: URIs into JS/CSS; keeps CSP simple and caching per file.
    assetsInlineLimit: 0,
    // No runtime preload helper / dependency map in the entry chunk (saves ~2 kB gzip of
    // first-load JS). scripts/prerender.mjs adds <link rel="modulepreload"> for the first
    // page's chunk and its imports; later pages are tiny and fetched on navigation.
    modulePreload: false,
    rolldownOptions: {
      output: {
        // One long-lived vendor chunk (react, react-dom, react-router) instead of several
        // small shared chunks: better compression, fewer requests, cache survives app changes.
        advancedChunks: {
          groups: [{ name: 'vendor', test: /[\\/]node_modules[\\/]/ }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8000', changeOrigin: false },
    },
  },
})
