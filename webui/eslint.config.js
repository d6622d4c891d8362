// ESLint (flat config): typescript-eslint, React hooks, jsx-a11y and the import boundaries of
// src/. `npm run lint` (eslint . --max-warnings=0) runs it on everything: src/, test/,
// scripts/, public/ and the config files.
//
// TypeScript 7 and typescript-eslint: TypeScript 7.0 (the native compiler) ships no JavaScript
// API, and typescript-eslint's parser needs one (it parses with `ts.createSourceFile`; its peer
// range is typescript <6.1). package.json therefore installs the two side by side, the layout
// the TypeScript 7 release notes recommend for tools that still need the API:
//   "typescript": "npm:@typescript/typescript6@…"  the TypeScript 6 API, for typescript-eslint;
//   "@typescript/native": "npm:typescript@7.0.2"   the compiler: its `tsc` is node_modules/.bin/tsc,
//                                                  which `npm run typecheck` and `build` run.
// (TypeScript 6 brings `tsc6`; npm links `tsc` from @typescript/native, which sorts before the
// API package's @typescript/old.) typescript-eslint's experimental tsgo backend (off unless
// asked for) wants a TypeScript 7.1 build under that alias, so `npm ls --all` calls 7.0.2
// "invalid" for it; nothing loads it. The linting is syntactic, not type-aware: `tsc` (strict)
// already checks the types, and type-aware rules would type-check the project a second time,
// with TypeScript 6.
//
// eslint-plugin-jsx-a11y 6.10.2 (the latest) declares a peer range of eslint ^3-^9; it uses none
// of the context methods ESLint 10 removed, so package.json's "overrides" lets it take ESLint 10.
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import importX, { createNodeResolver } from 'eslint-plugin-import-x'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import tseslint from 'typescript-eslint'

const here = path.dirname(fileURLToPath(import.meta.url))
const src = path.join(here, 'src')

/**
 * The features of the web UI (src/features/<name>/), one per server module: each is the unit of
 * the code about one thing (its API calls, components, hooks, page bodies, styles and tests).
 */
const featureNames = fs
  .readdirSync(path.join(src, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

/**
 * Import boundaries of src/, checked on the resolved file (so relative imports at any depth
 * count):
 * - app/ (the route table, layouts, routing) sits above everything: nothing else imports it.
 * - pages/ (the route modules) compose features and shared code; nothing but app/ imports them.
 * - features/<name>/ may use shared code and other features' public surface (their index.ts).
 *   From outside a feature, only its index.ts may be imported: its other files are internals.
 * - Shared code (lib/, components/) imports no feature, page or app; lib/ imports no component.
 * Tests count as the code they sit beside, but a test may import features (the rule-message
 * checks in lib/domains.test.ts compare the features' copies of the server's words).
 * test/lint-boundaries.test.ts proves each zone fires.
 */
function boundaries({ tests }) {
  // A test in a shared folder may import features (never their internals).
  const features = tests ? [] : ['./src/features']
  return [
    {
      target: './src/lib',
      from: ['./src/components', ...features, './src/pages', './src/app'],
      message: `src/lib (shared) imports neither components,${tests ? '' : ' features,'} pages nor app.`,
    },
    {
      target: './src/components',
      from: [...features, './src/pages', './src/app'],
      message: `src/components (shared) imports neither${tests ? '' : ' features,'} pages nor app.`,
    },
    {
      target: './src/features',
      from: ['./src/pages', './src/app'],
      message: 'src/features import neither pages nor app.',
    },
    {
      target: './src/pages',
      from: './src/app',
      message: 'src/pages may import features, components and lib, not app.',
    },
    ...featureZones(`${src}/*`, `${src}/!(features)/**`),
  ]
}

/** One zone per feature: from `targets` and from every other feature, only its index.ts. */
function featureZones(...targets) {
  return featureNames.map((feature) => ({
    target: [...targets, `${src}/features/!(${feature})/**`],
    from: `./src/features/${feature}`,
    // admin/index.ts: a feature's admin pages, a surface of their own so that the public
    // pages, which import index.ts, never load them.
    except: ['./index.ts', './admin/index.ts'],
    message: `Outside src/features/${feature}/, import it through its public surface, its index.ts.`,
  }))
}

const testFiles = 'src/**/*.test.{ts,tsx}'

export default defineConfig(
  globalIgnores([
    'dist/',
    'dist-server/',
    // Generated from the server's OpenAPI document (npm run gen:api).
    'src/lib/api-schema.d.ts',
  ]),
  {
    name: 'agency/base',
    files: ['**/*.{js,mjs,ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
  },
  {
    name: 'agency/react',
    files: ['src/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended, jsxA11y.flatConfigs.recommended],
    languageOptions: { globals: globals.browser },
  },
  {
    name: 'agency/node',
    files: ['scripts/**/*.mjs', '*.config.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  {
    // Classic scripts the browser runs as they are (no module, no bundler).
    name: 'agency/browser-scripts',
    files: ['scripts/paint-first-loader.js', 'public/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
  {
    name: 'agency/imports',
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      // no-cycle follows imports into these files, parsed as TypeScript.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: here, zones: boundaries({ tests: false }) }],
      'import-x/no-cycle': 'error',
      // react-router's <Link>/<NavLink> pull about 4 kB gzip of router code into every page's
      // first load (the tree-shaking in vite.config.ts drops it only while nothing imports it).
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-router-dom',
              importNames: ['Link', 'NavLink'],
              message: "Use Link and NavLink from lib/router: react-router's add 4 kB to every page.",
            },
          ],
        },
      ],
    },
  },
  {
    name: 'agency/imports-tests',
    files: [testFiles],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: here, zones: boundaries({ tests: true }) }] },
  },
  {
    // Test helpers (test/) reach features through their public surfaces too.
    name: 'agency/imports-test-helpers',
    files: ['test/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: here, zones: featureZones(`${here}/test/**`) }] },
  },
)
