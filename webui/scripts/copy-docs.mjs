// Copies Swagger UI's files into dist/docs/ so that /docs needs no CDN (offline installs, CSP).
import fs from 'node:fs/promises'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const source = path.dirname(require.resolve('swagger-ui-dist/package.json'))
const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'docs')
await fs.mkdir(target, { recursive: true })
for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE']) {
  await fs.copyFile(path.join(source, name), path.join(target, name === 'LICENSE' ? 'LICENSE.txt' : name))
}
console.log(`copied Swagger UI into ${path.relative(process.cwd(), target)}`)
