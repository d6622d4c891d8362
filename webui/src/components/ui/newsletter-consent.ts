/**
 * The newsletter box's wording and its version (the server's
 * src/agency/modules/leads/service/consents.py holds the same and records the version with every
 * ticked box; tests/leads/test_newsletter_consent_records.py keeps them equal, and
 * NewsletterOptIn.test.tsx checks the box says exactly this). A new wording takes a new version
 * in both places.
 */

export const NEWSLETTER_CONSENT_VERSION = 'newsletter-2026-11-26'
export const NEWSLETTER_CONSENT_TEXT =
  'Also send me the newsletter: tips and offers by e-mail, unsubscribe at any time (privacy policy).'
