import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// Proves that eslint.config.js enforces the import boundaries of src/ (and of test/'s helpers): each case lints one
// import, written as it would be in a file at `file` (a path that need not exist), with the
// project's real configuration, and lists the boundary messages it gets. The imported modules
// are real files (the rule checks the resolved path); no-unresolved, added here, makes a case
// whose module has moved fail instead of passing for want of a file.
const eslint = new ESLint({
  overrideConfig: { files: ['src/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}'], rules: { 'import-x/no-unresolved': 'error' } },
})

async function boundaryMessages(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\n`, { filePath: file })
  const rules = ['import-x/no-restricted-paths', 'import-x/no-unresolved']
  return result.messages.filter((message) => rules.includes(message.ruleId ?? '')).map((message) => message.message)
}

const LIB = 'src/lib (shared) imports neither components, features, pages nor app.'
const LIB_TEST = 'src/lib (shared) imports neither components, pages nor app.'
const COMPONENTS = 'src/components (shared) imports neither features, pages nor app.'
const FEATURES = 'src/features import neither pages nor app.'
const PAGES = 'src/pages may import features, components and lib, not app.'
const internals = (feature: string) =>
  `Outside src/features/${feature}/, import it through its public surface, its index.ts.`

describe('import boundaries (eslint.config.js)', { timeout: 60_000 }, () => {
  it.each([
    ['src/lib/probe.ts', "import '../components/ui/Button'", LIB],
    ['src/lib/probe.ts', "import '../pages/Home'", LIB],
    ['src/lib/probe.ts', "import '../app/routes'", LIB],
    ['src/lib/probe.ts', "import '../features/sites'", LIB],
    ['src/lib/probe.test.ts', "import '../components/ui/Button'", LIB_TEST],
    ['src/components/ui/Probe.tsx', "import '../../pages/Home'", COMPONENTS],
    ['src/components/ui/Probe.tsx', "import '../../app/routes'", COMPONENTS],
    ['src/components/ui/Probe.tsx', "export { default } from '../../pages/Home'", COMPONENTS],
    ['src/components/layout/Probe.tsx', "import { LeadForm } from '../../features/leads'", COMPONENTS],
    ['src/features/sites/Probe.tsx', "import '../../pages/Home'", FEATURES],
    ['src/features/sites/Probe.tsx', "import '../../app/routes'", FEATURES],
    ['src/pages/auth/Probe.tsx', "import '../../app/routes'", PAGES],
    // A feature's files other than its index.ts are its internals, from anywhere outside it.
    ['src/pages/Probe.tsx', "import { LeadForm } from '../features/leads/LeadForm'", internals('leads')],
    ['src/pages/dashboard/Probe.tsx', "export { default } from '../../features/sites/pages/Websites'", internals('sites')],
    ['src/features/billing/Probe.tsx', "import { fetchWebsites } from '../sites/sites'", internals('sites')],
    ['src/features/sites/pages/Probe.tsx', "import { ratingFor } from '../../speedtest/speed-test'", internals('speedtest')],
    ['src/app/Probe.tsx', "import { NotificationsButton } from '../features/notifications/NotificationsButton'", internals('notifications')],
    ['src/Probe.tsx', "import './features/content/landing.css'", internals('content')],
    ['src/lib/probe.test.ts', "import { checkSupport } from '../features/support/support'", internals('support')],
    ['src/pages/dashboard/Probe.tsx', "import '../../features/catalogue/admin/catalogue-admin'", internals('catalogue')],
    ['test/probe.ts', "import { LeadForm } from '../src/features/leads/LeadForm'", internals('leads')],
  ])('%s: %s is refused', async (file, source, message) => {
    expect(await boundaryMessages(file, source)).toEqual([expect.stringContaining(message)])
  })

  it.each([
    ['src/pages/Probe.tsx', "import '../components/ui/Button'"],
    ['src/pages/auth/Probe.tsx', "import '../../lib/cx'"],
    ['src/pages/Probe.tsx', "import { LeadForm } from '../features/leads'"],
    ['src/pages/dashboard/Probe.tsx', "export { WebsitesPage as default } from '../../features/sites'"],
    ['src/pages/dashboard/Probe.tsx', "export { AdminCataloguePage as default } from '../../features/catalogue/admin'"],
    ['src/components/ui/Probe.tsx', "import '../../lib/cx'"],
    ['src/components/ui/Probe.tsx', "import './Button'"],
    ['src/lib/probe.ts', "import './cx'"],
    ['src/lib/probe.test.ts', "import { MSG_EMAIL } from '../features/support'"],
    ['src/app/Probe.tsx', "import '../pages/Home'"],
    ['src/app/Probe.tsx', "import { NotificationsButton } from '../features/notifications'"],
    ['src/features/billing/pages/Probe.tsx', "import { fetchWebsites } from '../../sites'"],
    ['src/features/sites/pages/Probe.tsx', "import { fetchWebsites } from '../sites'"],
    ['src/features/sites/Probe.tsx', "import './sites.css'"],
    ['src/features/sites/Probe.tsx', "import '../../lib/cx'"],
    ['src/features/sites/Probe.tsx', "import '../../components/ui/Button'"],
    ['test/probe.ts', "import type { Catalogue } from '../src/features/catalogue'"],
  ])('%s: %s is allowed', async (file, source) => {
    expect(await boundaryMessages(file, source)).toEqual([])
  })
})
