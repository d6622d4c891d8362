// Prerenders every `prerender: true` route of src/app/routes.tsx into dist/, writes the
// untouched SPA shell (dist/spa.html) and dist/routes.json. Runs after the client build
// (dist/) and the SSR build (dist-server/entry-server.js).
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { minify } from 'vite'

// Production React for the static output (no dev-only markup or warnings).
process.env.NODE_ENV ??= 'production'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dist = path.join(root, 'dist')
const serverDir = path.join(root, 'dist-server')

const template = await fs.readFile(path.join(dist, 'index.html'), 'utf8')
const manifest = JSON.parse(await fs.readFile(path.join(dist, '.vite', 'manifest.json'), 'utf8'))
const { render, routeManifest, notFoundSource } = await import(pathToFileURL(path.join(serverDir, 'entry-server.js')).href)

for (const marker of ['<!--app-head-->', '<!--app-html-->']) {
  if (!template.includes(marker)) throw new Error(`index.html template lacks ${marker}`)
}

/** Chunk file plus its static imports (recursively), as /assets/... URLs. */
function chunkFiles(key, seen = new Set()) {
  const chunk = manifest[key]
  if (!chunk || seen.has(key)) return []
  seen.add(key)
  const files = [`/${chunk.file}`]
  for (const imported of chunk.imports ?? []) files.push(...chunkFiles(imported, seen))
  return files
}

/** React 19 emits hoistable <title>/<meta>/<link> at the start of the rendered tree; split them off. */
function splitHoisted(html) {
  const tag = /^(?:<title>[\s\S]*?<\/title>|<meta\b[^>]*>|<link\b[^>]*>)/
  const head = []
  let rest = html
  for (let m = tag.exec(rest); m; m = tag.exec(rest)) {
    head.push(m[0])
    rest = rest.slice(m[0].length)
  }
  return { head, body: rest }
}

/** The stylesheets a chunk and its static imports load (Vite adds them when the chunk runs). */
function chunkCss(key, seen = new Set()) {
  const chunk = manifest[key]
  if (!chunk || seen.has(key)) return []
  seen.add(key)
  return [...(chunk.css ?? []).map((file) => `/${file}`), ...(chunk.imports ?? []).flatMap((imported) => chunkCss(imported, seen))]
}

/** <link rel="stylesheet"> for a page's own styles (e.g. purchase.css): in the prerendered
 * head, so the page is laid out with them from the first paint (not when its script runs). */
function pageStyles(source) {
  return [...new Set(chunkCss(source))]
    .filter((file) => !template.includes(`href="${file}"`))
    .map((file) => `<link rel="stylesheet" crossorigin href="${file}">`)
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry)
if (!entryKey) throw new Error('No entry chunk in .vite/manifest.json')
const entryFile = `/${manifest[entryKey].file}`
/** The entry's static imports (react, router, ...): preloaded so the browser fetches them in parallel. */
const entryImports = chunkFiles(entryKey).filter((file) => file !== entryFile)

/** The modules to fetch along with the entry: distinct, the entry itself left out. */
const modulesBesideEntry = (files) => [...new Set(files)].filter((file) => file !== entryFile)

/** <link rel="modulepreload"> for the SPA shell: its page is empty until the scripts run. */
function preloadLinks(files) {
  return modulesBesideEntry(files).map((file) => `<link rel="modulepreload" crossorigin href="${file}">`)
}

/** Prerendered pages read complete without their scripts, so they load them only once the
 * page has painted (scripts/paint-first-loader.js): the entry and the modules to fetch with it
 * go into the loader's data attributes instead of <script>/<link> tags the browser would fetch
 * right away. */
const loaderSource = await fs.readFile(path.join(root, 'scripts', 'paint-first-loader.js'), 'utf8')
const minified = await minify('paint-first-loader.js', loaderSource)
if (minified.errors?.length) throw new Error(`paint-first-loader.js: ${minified.errors.map((e) => e.message).join('; ')}`)
const loaderFile = `/assets/loader-${createHash('sha256').update(minified.code).digest('base64url').slice(0, 10)}.js`
await fs.writeFile(path.join(dist, loaderFile.slice(1)), minified.code)

function loaderTag(files) {
  const preload = modulesBesideEntry(files).join(' ')
  return `<script src="${loaderFile}" defer data-entry="${entryFile}" data-preload="${preload}"></script>`
}

const entryScript = `<script type="module" crossorigin src="${entryFile}"></script>`
if (!template.includes(entryScript)) throw new Error(`index.html template lacks ${entryScript}`)

const INDENT = '\n    '
function withHead(html, tags) {
  return html.replace('<!--app-head-->', tags.join(INDENT))
}

function outputFile(routePath) {
  return routePath === '/' ? path.join(dist, 'index.html') : path.join(dist, routePath.slice(1), 'index.html')
}

const spaShell = withHead(template, preloadLinks(entryImports)).replace('<!--app-html-->', '')
const templateTitle = /<title>[\s\S]*?<\/title>/

const prerendered = routeManifest.filter((r) => r.prerender)
const spa = routeManifest.filter((r) => !r.prerender)
/** Client-only `:param` routes the server fills per request: rendered once, params as written. */
const templated = routeManifest.filter((r) => r.template)
/** dist-relative file of a template: '/blog/:slug' -> '_templates/blog/_slug.html'. */
const templateFile = (routePath) => `_templates${routePath.replaceAll(':', '_')}.html`

/**
 * The purchase pages (`/start`, `/ai-start`) are server pages whose look depends on the query
 * (the family and the plan) and on the catalogue: one template per variant, rendered with the
 * catalogue of config/catalogue.toml (test/fixtures/catalogue.json, kept current by
 * tests/catalogue/test_webui_fixture.py). The server (modules/catalogue/pages.py) picks the
 * variant by the same rules as src/features/catalogue/catalogue.ts, removes the "checkout cancelled" note
 * unless `canceled=true`, and embeds the current catalogue, which the page hydrates with.
 * Keys are the canonical URL of each variant, e.g. '/start?type=ai-booking'.
 */
const catalogue = JSON.parse(await fs.readFile(path.join(root, 'test', 'fixtures', 'catalogue.json'), 'utf8'))
const PURCHASE_PAGES = new Set(['/start', '/ai-start'])
const CANCELED = 'canceled=true'

function purchaseVariants(routePath) {
  const plansOf = (family) => family.plans.map((key) => catalogue.plans.find((p) => p.key === key)).filter(Boolean)
  if (routePath === '/start') {
    const sold = catalogue.families.filter((family) => plansOf(family).some((plan) => plan.checkout))
    return [
      ...sold.map((family) => `/start?type=${family.key}`),
      ...sold.flatMap((family) => plansOf(family).filter((plan) => plan.checkout).map((plan) => `/start?plan=${plan.key}`)),
    ]
  }
  const website = catalogue.families.find((family) => family.key === 'website')
  if (!website) return []
  const keys = new Set([...plansOf(website).filter((plan) => plan.checkout).map((plan) => plan.key), website.default_plan])
  return [...keys].map((key) => `/ai-start?plan=${key}`)
}

/** '/start?type=ai-booking' -> '_templates/start/type-ai-booking.html'. */
const variantFile = (url) => {
  const [page, query] = url.split('?')
  return `_templates${page}/${query.replace('=', '-')}.html`
}

const variants = {}
const renders = [...prerendered, ...templated].map((route) => ({ route, url: route.path, file: null }))
for (const route of templated.filter((r) => PURCHASE_PAGES.has(r.path))) {
  for (const url of purchaseVariants(route.path)) {
    variants[url] = variantFile(url)
    renders.push({ route, url, file: variants[url] })
  }
}

for (const { route, url, file: variant } of renders) {
  const started = performance.now()
  const purchase = PURCHASE_PAGES.has(route.path)
  // Rendered with the note shown: the server takes it out when the query does not ask for it.
  const rendered = purchase
    ? await render(`${url}${url.includes('?') ? '&' : '?'}${CANCELED}`, catalogue)
    : await render(route.path)
  const { head, body } = splitHoisted(rendered)
  if (!body.trim()) throw new Error(`Prerender of ${route.path} produced no markup`)
  if (/<script\b/i.test(rendered)) throw new Error(`Prerender of ${route.path} produced an inline <script>`)
  if (/\sstyle="/i.test(rendered)) throw new Error(`Prerender of ${route.path} produced a style="" attribute (CSP)`)

  if (!chunkFiles(route.source).length) throw new Error(`No chunk for ${route.source} in the manifest`)
  let page = template.replace(entryScript, loaderTag([...entryImports, ...chunkFiles(route.source)]))
  if (head.some((tag) => tag.startsWith('<title>'))) page = page.replace(templateTitle, '')
  page = withHead(page, [...head, ...pageStyles(route.source)]).replace('<!--app-html-->', body)

  const file = variant ? path.join(dist, variant) : route.template ? path.join(dist, templateFile(route.path)) : outputFile(route.path)
  await fs.mkdir(path.dirname(file), { recursive: true })
  await fs.writeFile(file, page)
  console.log(`prerendered ${url.padEnd(40)} ${(page.length / 1024).toFixed(1).padStart(6)} kB  ${(performance.now() - started).toFixed(0)} ms`)
}

/**
 * The 404 page (src/pages/NotFound.tsx), rendered for a path no route matches into
 * dist/404.html: the server sends it with status 404 for every unknown path outside /api/
 * (never as a page of its own, so it is in no route list and not in the sitemap).
 */
const NOT_FOUND_FILE = '404.html'
const NOT_FOUND_PROBE = '/404'
{
  const started = performance.now()
  const rendered = await render(NOT_FOUND_PROBE)
  const { head, body } = splitHoisted(rendered)
  if (!/<h1>Page not found<\/h1>/.test(body)) throw new Error(`Prerender of ${NOT_FOUND_PROBE} did not render the 404 page`)
  if (!head.includes('<meta name="robots" content="noindex"/>')) throw new Error('The 404 page lacks <meta name="robots" content="noindex">')
  if (/<script\b/i.test(rendered) || /\sstyle="/i.test(rendered)) throw new Error('Prerender of the 404 page produced an inline <script> or style=""')
  if (!chunkFiles(notFoundSource).length) throw new Error(`No chunk for ${notFoundSource} in the manifest`)
  let page = template.replace(entryScript, loaderTag([...entryImports, ...chunkFiles(notFoundSource)]))
  if (head.some((tag) => tag.startsWith('<title>'))) page = page.replace(templateTitle, '')
  page = withHead(page, [...head, ...pageStyles(notFoundSource)]).replace('<!--app-html-->', body)
  await fs.writeFile(path.join(dist, NOT_FOUND_FILE), page)
  console.log(`prerendered ${('404 page -> ' + NOT_FOUND_FILE).padEnd(40)} ${(page.length / 1024).toFixed(1).padStart(6)} kB  ${(performance.now() - started).toFixed(0)} ms`)
}

await fs.writeFile(path.join(dist, 'spa.html'), spaShell)
await fs.writeFile(
  path.join(dist, 'routes.json'),
  JSON.stringify(
    {
      prerendered: prerendered.map((r) => r.path),
      spa: spa.map((r) => r.path),
      sitemap: prerendered.filter((r) => r.indexable).map((r) => r.path),
      templates: { ...Object.fromEntries(templated.map((r) => [r.path, templateFile(r.path)])), ...variants },
      // What the purchase templates were rendered with: the server serves the client shell instead
      // while its catalogue differs (an admin changed a price), so no page shows a stale price.
      template_catalogue: catalogue,
    },
    null,
    2,
  ) + '\n',
)

// Build-time only artefacts: not part of what the server serves.
await fs.rm(path.join(dist, '.vite'), { recursive: true, force: true })
await fs.rm(serverDir, { recursive: true, force: true })

console.log(`prerendered ${prerendered.length} routes; ${spa.length} client-only patterns in routes.json`)
