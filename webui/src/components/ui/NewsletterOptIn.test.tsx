import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { NewsletterOptIn } from './NewsletterOptIn'
import { NEWSLETTER_CONSENT_TEXT } from './newsletter-consent'

describe('NewsletterOptIn', () => {
  it('says the wording whose version the server records, unticked, with the privacy link', () => {
    render(<NewsletterOptIn />)
    const box = screen.getByRole('checkbox')
    expect(box).not.toBeChecked()
    const label = box.closest('div')?.querySelector('label')
    expect(label?.textContent).toBe(NEWSLETTER_CONSENT_TEXT)
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy')
  })
})
