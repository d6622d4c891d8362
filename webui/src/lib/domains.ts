/**
 * Domains people type: one cleaning and the host rule, the client's copy of the server's
 * (`agency/core/text.py`: `strip_scheme`, `bare_domain`, `valid_host`). The analysis pages'
 * `single_label_domain` is ./analysis `validAnalysisDomain` (kept there so the speed-test pages'
 * first load does not carry it). domains.test.ts runs all of them on the cases in
 * test/fixtures/domain-cases.json, which tests/test_rule_cases.py runs on the server's.
 */

const SCHEME = /^https?:\/\//i
const WWW = /^www\./i
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/
const TLD = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59}[A-Za-z0-9])$/
const DOMAIN_MAX = 253

/** The value trimmed and a leading http(s):// (any case) removed. */
export function stripScheme(raw: string): string {
  return raw.trim().replace(SCHEME, '')
}

/** `stripScheme`, then a leading www. (any case) and one trailing slash removed; the case is kept. */
export function bareDomain(raw: string): string {
  const value = stripScheme(raw).replace(WWW, '')
  return value.endsWith('/') ? value.slice(0, -1) : value
}

/**
 * A host name of at least two labels (letters, digits, inner hyphens; 63 at most each) whose
 * last is a top-level part of at least 2 letters (or an `xn--` name); 253 characters at most.
 */
export function validHost(host: string): boolean {
  const labels = host.split('.')
  return (
    host.length <= DOMAIN_MAX &&
    labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    TLD.test(labels[labels.length - 1] ?? '')
  )
}
