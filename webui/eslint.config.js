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
import tseslint from 'typescript-eslint'

/**
 * Import boundaries between the layers of src/ (checked on the resolved file, so relative
 * imports at any depth count): pages may import components and lib; components never import
 * pages; lib imports neither. app/ (the route table, layouts, routing) sits above them all:
 * nothing under pages/, components/ or lib/ imports it. test/lint-boundaries.test.ts proves each
 * zone fires.
 */
const boundaries = [
  {
    target: './src/lib',
    from: ['./src/components', './src/pages', './src/app'],
    message: 'src/lib imports neither components, pages nor app.',
  },
  {
    target: './src/components',
    from: ['./src/pages', './src/app'],
    message: 'src/components never imports pages or app.',
  },
  {
    target: './src/pages',
    from: './src/app',
    message: 'src/pages may import components and lib, not app.',
  },
]

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
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
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
)
