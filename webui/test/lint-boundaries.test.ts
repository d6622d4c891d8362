import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// Proves that eslint.config.js enforces the import boundaries of src/: each case lints one
// import, written as it would be in a file at `file` (a path that need not exist), with the
// project's real configuration, and lists the boundary messages it gets. The imported modules
// are real files (the rule checks the resolved path); no-unresolved, added here, makes a case
// whose module has moved fail instead of passing for want of a file.
const eslint = new ESLint({
  overrideConfig: { files: ['src/**/*.{ts,tsx}'], rules: { 'import-x/no-unresolved': 'error' } },
})

async function boundaryMessages(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\n`, { filePath: file })
  const rules = ['import-x/no-restricted-paths', 'import-x/no-unresolved']
  return result.messages.filter((message) => rules.includes(message.ruleId ?? '')).map((message) => message.message)
}

const LIB = 'src/lib imports neither components, pages nor app.'
const COMPONENTS = 'src/components never imports pages or app.'
const PAGES = 'src/pages may import components and lib, not app.'

describe('import boundaries (eslint.config.js)', { timeout: 60_000 }, () => {
  it.each([
    ['src/lib/probe.ts', "import '../components/ui/Button'", LIB],
    ['src/lib/probe.ts', "import '../pages/Home'", LIB],
    ['src/lib/probe.ts', "import '../app/routes'", LIB],
    ['src/components/ui/Probe.tsx', "import '../../pages/Home'", COMPONENTS],
    ['src/components/ui/Probe.tsx', "import '../../app/routes'", COMPONENTS],
    ['src/components/ui/Probe.tsx', "export { default } from '../../pages/Home'", COMPONENTS],
    ['src/pages/auth/Probe.tsx', "import '../../app/routes'", PAGES],
  ])('%s: %s is refused', async (file, source, message) => {
    expect(await boundaryMessages(file, source)).toEqual([expect.stringContaining(message)])
  })

  it.each([
    ['src/pages/Probe.tsx', "import '../components/ui/Button'"],
    ['src/pages/auth/Probe.tsx', "import '../../lib/cx'"],
    ['src/components/ui/Probe.tsx', "import '../../lib/cx'"],
    ['src/components/ui/Probe.tsx', "import './Button'"],
    ['src/lib/probe.ts', "import './cx'"],
    ['src/app/Probe.tsx', "import '../pages/Home'"],
  ])('%s: %s is allowed', async (file, source) => {
    expect(await boundaryMessages(file, source)).toEqual([])
  })
})
