import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

// react-router 7's package exports always point at its *development* build (extra dev-only
// checks and warnings). Production bundles use its production build instead (~2 kB gzip less).
const rrProd = (file: string) => fileURLToPath(new URL(`./node_modules/react-router/dist/production/${file}`, import.meta.url))

const REACT_ROUTER_PRODUCTION = /[\\/]react-router[\\/]dist[\\/]production[\\/]/

/**
 * The rewrites, each with how often it matched react-router 7.18's production build. A newer
 * react-router can rename or reshape these lines; the build then fails (below) instead of
 * quietly shipping the components back. Check the new code and update the pattern or count.
 */
const REACT_ROUTER_REWRITES: readonly { name: string; pattern: RegExp; replacement: string; expected: number }[] = [
  {
    name: 'top-level forwardRef/createContext/memo calls marked pure',
    pattern: /^(var \w+ = )(React\d*\.(?:forwardRef|createContext|memo)\()/gm,
    replacement: '$1/* @__PURE__ */ $2',
    expected: 16,
  },
  {
    name: 'displayName assignments dropped',
    pattern: /^\w+\.displayName = "[^"]*";$/gm,
    replacement: '',
    expected: 15,
  },
]

function reactRouterVersion(): string {
  const manifest = new URL('./node_modules/react-router/package.json', import.meta.url)
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
  } catch {
    return 'unknown'
  }
}

/**
 * react-router ships as one large module whose top-level `var X = React.forwardRef(...)`,
 * `React.createContext(...)` and `X.displayName = ...` statements look like side effects to
 * the bundler, so every component it defines (Form, ScrollRestoration, framework-mode
 * prefetching, ...) stays in the bundle whether used or not. Marking those calls pure and
 * dropping the debug-only displayName assignments lets tree-shaking remove what the UI never
 * imports: about 7 kB gzip off every page's first load.
 */
function reactRouterTreeShaking(): Plugin {
  let command: 'build' | 'serve' = 'serve'
  let transformed = 0
  const counts = new Map<string, number>()
  return {
    name: 'agency:react-router-tree-shaking',
    configResolved(config) {
      command = config.command
    },
    buildStart() {
      transformed = 0
      counts.clear()
    },
    transform(code, id) {
      if (!REACT_ROUTER_PRODUCTION.test(id)) return null
      transformed += 1
      let result = code
      for (const rewrite of REACT_ROUTER_REWRITES) {
        const found = result.match(rewrite.pattern)?.length ?? 0
        counts.set(rewrite.name, (counts.get(rewrite.name) ?? 0) + found)
        result = result.replace(rewrite.pattern, rewrite.replacement)
      }
      return result
    },
    buildEnd(error) {
      // Only the client build bundles react-router (the SSR build leaves node_modules
      // external; the dev server pre-bundles them).
      if (error || command !== 'build' || this.environment.name !== 'client') return
      const version = reactRouterVersion()
      if (transformed === 0) {
        this.error(
          `agency:react-router-tree-shaking: no module of react-router ${version}'s production build (dist/production/) was bundled; check the resolve.alias entries in vite.config.ts.`,
        )
      }
      const failures = REACT_ROUTER_REWRITES.filter((rewrite) => (counts.get(rewrite.name) ?? 0) < rewrite.expected).map(
        (rewrite) =>
          `pattern ${rewrite.pattern} (${rewrite.name}) matched ${counts.get(rewrite.name) ?? 0} times, expected ${rewrite.expected}`,
      )
      if (failures.length > 0) {
        this.error(
          `agency:react-router-tree-shaking: react-router ${version} no longer looks as this plugin expects:\n  ` +
            failures.join('\n  ') +
            '\nUnused react-router components would stay in every first load. Update the patterns or counts in vite.config.ts.',
        )
      }
    },
  }
}

/**
 * Stateless components and helpers that each page chunk gets its own copy of: the shared icons,
 * ui components and small helpers, the content feature's landing-page blocks, the catalogue's
 * price and plan cards, the lead form, the score gauge and the auth card, and every feature's
 * index.ts (re-exports only, so a page's copies reach through it).
 */
const PER_PAGE_MODULE =
  /[\\/]src[\\/](?:components[\\/](?:icons|ui)[\\/]|lib[\\/](?:forms|cx|money|claims)\.|features[\\/](?:[\w-]+[\\/]index\.ts$|content[\\/]|catalogue[\\/](?:PlanSummary|OfferPrice|PreviousPrice|PlanTierCard|HomePricing)\.|leads[\\/]LeadForm\.|speedtest[\\/]ScoreGauge\.|auth[\\/]AuthCard\.))/
/** ...except those the entry chunk has anyway (header and footer use them). */
const ENTRY_MODULE = /[\\/](?:Icon|MenuIcon|CloseIcon|Button|Spinner)\.tsx$/
/** `Card.tsx` copied for page `SalesFunnel` is the module `Card.page-SalesFunnel.tsx`. */
const PAGE_COPY = /\.page-([\w-]+)(\.tsx?)$/
/** A route module (src/pages/) or a feature's page body (src/features/<feature>/pages/). */
const PAGE_MODULE = /[\\/]src[\\/](?:pages|features[\\/]([\w-]+)[\\/]pages)[\\/](.+)\.tsx$/

/**
 * Modules outside a page (src/pages/, a feature's pages/) that still import the copy of one
 * page: `module` imported from a file `importer` matches is that page's copy. The SEO article
 * manager's forms (ArticleEditor, ArticleGenerator, articles.ts) read lib/forms through the SEO
 * page's own copy: importing the shared original from a dashboard page made the bundler regroup
 * the chunks the public pages share (forms, Field, CheckIcon), which changed the modulepreload
 * links of their prerendered HTML.
 */
const PAGE_OWNED: readonly { importer: RegExp; module: RegExp; page: string }[] = [
  { importer: /[\\/]src[\\/]features[\\/]seo[\\/][\w-]+\.tsx?$/, module: /[\\/]src[\\/]lib[\\/]forms\.ts$/, page: 'seo_SeoArticles' },
  // The admins' overview (charts, figures) formats money with lib/money through its page's copy:
  // the shared original sits in the catalogue's public chunk, and a second importer split it out
  // into a chunk of its own on every public page (+0.2 kB first load).
  { importer: /[\\/]src[\\/]features[\\/]overview[\\/][\w-]+\.tsx?$/, module: /[\\/]src[\\/]lib[\\/]money\.ts$/, page: 'overview_Overview' },
]

/**
 * Gives every page chunk its own copy of the small components it uses, instead of letting
 * the bundler split each component shared by two pages into a chunk of its own. A landing
 * page otherwise loads twenty-odd files of a few hundred bytes each (every icon, card and
 * form field), which compress far worse apart than together: about 4 kB gzip more on the
 * heaviest pages. Copies are distinct modules, so only stateless modules qualify (no
 * contexts, no caches: the catalogue, lib/auth, lib/router stay shared).
 */
function pageChunks(): Plugin {
  const pageOf = (importer: string): string | undefined => {
    const page = PAGE_MODULE.exec(importer)
    return PAGE_COPY.exec(importer)?.[1] ?? (page ? [page[1], page[2]].filter(Boolean).join('_').replace(/[\\/]/g, '_') : undefined)
  }
  return {
    name: 'agency:page-chunks',
    enforce: 'pre',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    async resolveId(source, importer, options) {
      if (!importer) return null
      const page = pageOf(importer)
      if (!page) {
        const owned = PAGE_OWNED.filter((rule) => rule.importer.test(importer))
        if (owned.length === 0) return null
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
        const rule = resolved && !resolved.external && owned.find((candidate) => candidate.module.test(resolved.id))
        if (!resolved || !rule) return resolved
        return { id: resolved.id.replace(/(\.tsx?)$/, `.page-${rule.page}$1`), moduleSideEffects: resolved.moduleSideEffects }
      }
      const resolved = await this.resolve(source, importer.replace(PAGE_COPY, '$2'), { ...options, skipSelf: true })
      if (!resolved || resolved.external || !PER_PAGE_MODULE.test(resolved.id) || ENTRY_MODULE.test(resolved.id)) {
        return resolved
      }
      // A copy is as free of side effects as its original (package.json "sideEffects"), which
      // also lets the bundler skip the unused re-exports of a copied index.ts (lazyBarrel).
      return { id: resolved.id.replace(/(\.tsx?)$/, `.page-${page}$1`), moduleSideEffects: resolved.moduleSideEffects }
    },
    load(id) {
      return PAGE_COPY.test(id) ? readFile(id.replace(PAGE_COPY, '$2'), 'utf8') : null
    },
  }
}

// https://vite.dev/config/
export default defineConfig({
  plugins: [react(), reactRouterTreeShaking(), pageChunks()],
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
      // A page that imports a feature's index.ts (its barrel of re-exports) loads only the
      // modules it uses from it, as if it imported them directly: the same chunks, in the same
      // order (the modulepreload links of the prerendered pages), as before src/features/.
      experimental: { lazyBarrel: true },
      output: {
        // One long-lived vendor chunk (react, react-dom, react-router) instead of several
        // small shared chunks: better compression, fewer requests, cache survives app changes.
        advancedChunks: {
          groups: [{ name: 'vendor', test: /[\\/]node_modules[\\/]|^\0rolldown[\\/]runtime/ }],
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
