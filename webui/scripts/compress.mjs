// Writes precompressed siblings X.br (brotli q11) and X.gz for every text file in dist/. The
// gzip files come from Zopfli: ordinary gzip any client can read, about 3% smaller than
// `gzip -9` for the price of a few seconds at build time (the server sends them as they are).
import { gzipAsync as zopfliGzip } from '@gfx/zopfli'
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'
import { promisify } from 'node:util'

const brotli = promisify(zlib.brotliCompress)

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist')
const TEXT_EXTENSIONS = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.xml', '.txt', '.webmanifest'])

async function* walk(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(full)
    else if (entry.isFile()) yield full
  }
}

let count = 0
let raw = 0
let br = 0
let gz = 0
for await (const file of walk(dist)) {
  if (!TEXT_EXTENSIONS.has(path.extname(file))) continue
  const data = await fs.readFile(file)
  const [brData, gzData] = await Promise.all([
    brotli(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    zopfliGzip(data, { numiterations: 15 }),
  ])
  await fs.writeFile(`${file}.br`, brData)
  await fs.writeFile(`${file}.gz`, gzData)
  count += 1
  raw += data.length
  br += brData.length
  gz += gzData.length
}
const kb = (n) => `${(n / 1024).toFixed(1)} kB`
console.log(`compressed ${count} files: ${kb(raw)} raw, ${kb(gz)} gzip, ${kb(br)} brotli`)
