/**
 * The client's e-mail check: a loose first look (something, @, something with a dot, no space),
 * so a plain slip is caught before any call. The server's rule (`agency/core/text.py`
 * `valid_email`) is stricter and decides; every address it accepts passes here too. Both run
 * the cases in test/fixtures/email-cases.json.
 */
const LOOSE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function looksLikeEmail(email: string): boolean {
  return LOOSE_EMAIL.test(email)
}
