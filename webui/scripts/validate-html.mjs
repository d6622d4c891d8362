/**
 * Checks that pages are valid HTML with html-validate: the standard rules (what the HTML
 * standard allows), the accessibility and document rules, and one rule of ours that
 * html-validate lacks, `agency/aria-allowed-role`: an ARIA role the element does not allow
 * ("ARIA in HTML", https://www.w3.org/TR/html-aria/) is an error, as the W3C checker says.
 *
 *   node scripts/validate-html.mjs                 every prerendered page of dist/ (not dist/docs,
 *                                                  the copied Swagger UI)
 *   node scripts/validate-html.mjs a.html b.html   those files
 *   ... --json                                     the report as JSON on stdout
 *
 * Exit status 1 when a page has an error. Run by `npm run validate:html` and by
 * tests/e2e/test_html_valid.py.
 */
import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HtmlValidate, Rule } from 'html-validate'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

// The roles each element allows besides its implicit one (redundant roles are html-validate's
// `no-redundant-role`). An element missing here allows any role. From "ARIA in HTML",
// "Document conformance requirements for use of ARIA attributes in HTML".
const NONE = ['none', 'presentation']
const LINK_ROLES = ['button', 'checkbox', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'switch', 'tab', 'treeitem']
const LIST_ROLES = ['directory', 'group', 'listbox', 'menu', 'menubar', ...NONE, 'radiogroup', 'tablist', 'toolbar', 'tree']
const ALLOWED = {
  article: ['application', 'document', 'feed', 'main', ...NONE, 'region'],
  aside: ['doc-dedication', 'doc-example', 'doc-footnote', 'doc-glossary', 'doc-pullquote', 'doc-tip', 'feed', ...NONE, 'note', 'region', 'search'],
  body: [],
  button: ['checkbox', 'combobox', 'gridcell', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'separator', 'slider', 'switch', 'tab', 'treeitem'],
  caption: [],
  datalist: [],
  dd: [],
  details: [],
  dialog: ['alertdialog'],
  dt: [],
  fieldset: [...NONE, 'radiogroup'],
  footer: ['group', ...NONE, 'doc-footnote'],
  form: ['search', ...NONE],
  h1: [...NONE, 'tab', 'doc-subtitle'],
  h2: [...NONE, 'tab', 'doc-subtitle'],
  h3: [...NONE, 'tab', 'doc-subtitle'],
  h4: [...NONE, 'tab', 'doc-subtitle'],
  h5: [...NONE, 'tab', 'doc-subtitle'],
  h6: [...NONE, 'tab', 'doc-subtitle'],
  head: [],
  header: ['group', ...NONE],
  hr: [...NONE, 'doc-pagebreak'],
  html: [],
  label: [],
  legend: [],
  main: [],
  menu: LIST_ROLES,
  meta: [],
  meter: [],
  nav: ['doc-index', 'doc-pagelist', 'doc-toc', 'menu', 'menubar', ...NONE, 'tablist'],
  ol: LIST_ROLES,
  optgroup: [],
  option: [],
  progress: [],
  script: [],
  search: ['form', 'group', ...NONE, 'region', 'search'],
  section: [
    'alert', 'alertdialog', 'application', 'banner', 'complementary', 'contentinfo', 'dialog', 'document', 'feed',
    'group', 'log', 'main', 'marquee', 'navigation', ...NONE, 'note', 'search', 'status', 'tabpanel',
    'doc-abstract', 'doc-acknowledgments', 'doc-afterword', 'doc-appendix', 'doc-bibliography', 'doc-chapter',
    'doc-colophon', 'doc-conclusion', 'doc-credit', 'doc-credits', 'doc-dedication', 'doc-endnotes', 'doc-epigraph',
    'doc-epilogue', 'doc-errata', 'doc-example', 'doc-foreword', 'doc-glossary', 'doc-index', 'doc-introduction',
    'doc-notice', 'doc-pagelist', 'doc-part', 'doc-preface', 'doc-prologue', 'doc-pullquote', 'doc-qna', 'doc-toc',
  ],
  select: ['menu'],
  source: [],
  style: [],
  summary: [],
  template: [],
  textarea: [],
  title: [],
  track: [],
  ul: LIST_ROLES,
  video: ['application'],
  audio: ['application'],
}
const LIST_PARENTS = new Set(['ul', 'ol', 'menu'])

/** The roles `element` allows (besides its implicit one), or null for any. */
function allowedRoles(element) {
  const tag = element.tagName
  if (tag === 'a' || tag === 'area') return element.hasAttribute('href') ? LINK_ROLES : null
  if (tag === 'li') return element.parent && LIST_PARENTS.has(element.parent.tagName) ? [] : null
  if (tag === 'img') return element.getAttributeValue('alt') === '' ? NONE : null
  if (tag === 'figure') return element.querySelector('figcaption') ? ['doc-example', ...NONE] : null
  return ALLOWED[tag] ?? null
}

class AriaAllowedRole extends Rule {
  documentation() {
    return {
      description: 'An element may only carry the ARIA roles "ARIA in HTML" allows it (e.g. an <li> in a list none, an <article> not "group").',
      url: 'https://www.w3.org/TR/html-aria/#docconformance',
    }
  }

  setup() {
    this.on('dom:ready', ({ document }) => {
      for (const element of document.querySelectorAll('[role]')) {
        const role = (element.getAttributeValue('role') ?? '').trim().split(/\s+/)[0]
        if (!role) continue
        const allowed = allowedRoles(element)
        if (allowed === null || allowed.includes(role) || role === element.meta?.aria?.implicitRole?.(element)) continue
        this.report(element, `Role "${role}" is not allowed on <${element.tagName}>`, element.getAttribute('role')?.valueLocation ?? undefined)
      }
    })
  }
}

export const plugin = { name: 'agency', rules: { 'agency/aria-allowed-role': AriaAllowedRole } }

export const config = {
  plugins: [plugin],
  extends: ['html-validate:standard', 'html-validate:a11y', 'html-validate:document'],
  rules: {
    'agency/aria-allowed-role': 'error',
    // The pages' scripts and styles are our own, from the same origin (the CSP allows only
    // 'self'): subresource integrity protects nothing there.
    'require-sri': 'off',
    // A list may have a name (ARIA allows it on any nameable role); html-validate's default
    // only warns against it, which reads as an error here.
    'aria-label-misuse': ['error', { allowAnyNamable: true }],
  },
}

function htmlFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return path === join(ROOT, 'dist', 'docs') ? [] : htmlFiles(path)
    return name.endsWith('.html') ? [path] : []
  })
}

async function main(args) {
  const json = args.includes('--json')
  const files = args.filter((a) => a !== '--json')
  const targets = files.length > 0 ? files : htmlFiles(join(ROOT, 'dist')).sort()
  const validator = new HtmlValidate(config)
  const results = []
  for (const file of targets) {
    const report = await validator.validateFile(file)
    for (const result of report.results) results.push(...result.messages.map((m) => ({ file: relative(ROOT, file), line: m.line, column: m.column, rule: m.ruleId, message: m.message, selector: m.selector })))
  }
  if (json) process.stdout.write(JSON.stringify({ files: targets.length, errors: results }) + '\n')
  else {
    for (const e of results) process.stdout.write(`${e.file}:${e.line}:${e.column} ${e.rule}: ${e.message} (${e.selector ?? ''})\n`)
    process.stdout.write(`${targets.length} pages checked, ${results.length} problems\n`)
  }
  return results.length === 0 ? 0 : 1
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2))
}
