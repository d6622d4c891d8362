// Prints the first-load transfer (gzip -9, as written by compress.mjs) of each prerendered
// page and of spa.html: HTML + every script, modulepreload and stylesheet it references (on a
// prerendered page that includes the modules its paint-first loader lists in data-entry and
// data-preload).
// Usage (after `npm run build`): node scripts/size-report.mjs [--max-js-kb=90]
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist')
const maxArg = process.argv.find((a) => a.startsWith('--max-js-kb='))
const maxJsKb = maxArg ? Number(maxArg.split('=')[1]) : undefined
const routes = JSON.parse(fs.readFileSync(path.join(dist, 'routes.json'), 'utf8'))

const gz = (file) => fs.statSync(path.join(dist, `${file}.gz`)).size
// kB = 1000 bytes, as Vite prints them.
const kb = (n) => (n / 1000).toFixed(1).padStart(6)

let failed = false
const pages = [...routes.prerendered.map((r) => [r, r === '/' ? 'index.html' : `${r.slice(1)}/index.html`]), ['(spa)', 'spa.html']]
console.log(`${'page'.padEnd(30)}   html     js    css  (kB gzip)`)
for (const [route, file] of pages) {
  const html = fs.readFileSync(path.join(dist, file), 'utf8')
  const tags = [...html.matchAll(/<(?:script|link)\b[^>]*>/g)].map((m) => m[0])
  const refs = tags.flatMap((tag) => [...tag.matchAll(/["\s]\/(assets\/[^"\s]+)/g)].map((m) => m[1]))
  const js = [...new Set(refs.filter((r) => r.endsWith('.js')))].reduce((sum, f) => sum + gz(f), 0)
  const css = [...new Set(refs.filter((r) => r.endsWith('.css')))].reduce((sum, f) => sum + gz(f), 0)
  const over = maxJsKb !== undefined && js / 1000 > maxJsKb
  failed ||= over
  console.log(`${route.padEnd(30)} ${kb(gz(file))} ${kb(js)} ${kb(css)}${over ? '  <-- over budget' : ''}`)
}
if (failed) process.exit(1)
