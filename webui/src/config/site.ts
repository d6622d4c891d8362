/**
 * Site-wide contact details shown on landing pages.
 *
 * PLACEHOLDER: the phone number below is a stand-in until the server provides the agency's
 * real number from its configuration. Change it here only; pages import it from this file.
 */
export const CONTACT_PHONE_PLACEHOLDER = '+49 30 1234 5678'

/** The phone number shown on pages (currently the placeholder above). */
export const CONTACT_PHONE = CONTACT_PHONE_PLACEHOLDER

/** `tel:` link target for a displayed phone number ("+49 30 1234 5678" -> "tel:+493012345678"). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`
}
