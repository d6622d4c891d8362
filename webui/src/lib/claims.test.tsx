import { render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { MemoryRouter } from 'react-router-dom'
import { Claim, claimText, shownLines } from './claims'
import { resetSiteConfigForTests } from './site-config'
import { CheckList, FaqAccordion, OfferCard, StickyMobileCta } from '../features/content'

/** The page as the server sends it: `<meta name="agency-site">` with these claims. */
function withClaims(claims: Record<string, string>) {
  const meta = document.createElement('meta')
  meta.name = 'agency-site'
  meta.content = JSON.stringify({ claims })
  document.head.append(meta)
  resetSiteConfigForTests()
}

afterEach(() => {
  document.head.querySelectorAll('meta[name="agency-site"]').forEach((meta) => meta.remove())
  resetSiteConfigForTests()
})

function Blocks() {
  return (
    <MemoryRouter>
      <p data-testid="badge">
        <Claim claim="lead_engine_badge" fallback="Launch offer" />
      </p>
      <CheckList items={['72h delivery', { claim: 'lead_engine_spots' }]} className="points" />
      <FaqAccordion
        items={[
          { question: 'How fast?', answer: '72 hours.' },
          { question: 'Why only 5 spots?', answer: 'By hand.', claim: 'lead_engine_spots' },
        ]}
      />
      <OfferCard ribbon="8 left" ribbonClaim="ai_scale_slots" name="Offer" facts={[]} to="/start" action="Buy" fine="Fine print">
        <span>€1</span>
      </OfferCard>
      <StickyMobileCta to="/start" label="Go" noteClaim="ai_scale_slots" />
    </MemoryRouter>
  )
}

describe('claims', () => {
  it('show the configured texts, marked for the server', () => {
    withClaims({ lead_engine_badge: 'Only 3 places', lead_engine_spots: '3 places at this price', ai_scale_slots: '2 left' })
    render(<Blocks />)
    expect(screen.getByTestId('badge')).toHaveTextContent('Only 3 places')
    expect(screen.getByTestId('badge').querySelector('[data-claim="lead_engine_badge"]')).not.toBeNull()
    expect(screen.getByText('3 places at this price').closest('li')).toHaveAttribute('data-claim', 'lead_engine_spots')
    expect(screen.getByRole('button', { name: 'Why only 5 spots?' })).toBeInTheDocument()
    expect(document.querySelector('.offer-card__ribbon')).toHaveAttribute('data-claim', 'ai_scale_slots')
    expect(screen.getByRole('region', { name: 'Quick action' })).toHaveTextContent('2 left')
  })

  it('leave nothing behind when off: no text, no empty element, the stand-in instead', () => {
    withClaims({})
    render(<Blocks />)
    expect(screen.getByTestId('badge')).toHaveTextContent(/^Launch offer$/)
    expect(screen.getByTestId('badge').querySelector('[data-claim-off="lead_engine_badge"]')).not.toBeNull()
    expect(document.querySelectorAll('.points li')).toHaveLength(1)
    expect(screen.queryByRole('button', { name: 'Why only 5 spots?' })).not.toBeInTheDocument()
    expect(document.querySelector('.offer-card__ribbon')).toBeNull()
    expect(document.querySelector('.sticky-cta__note')).toBeNull()
    expect(claimText('ai_scale_slots')).toBeNull()
    expect(shownLines(['a', { claim: 'ai_scale_slots' }]).map((line) => line.text)).toEqual(['a'])
  })

  it('show the bundled defaults (the specs wording) without a meta tag', () => {
    render(<Blocks />)
    expect(screen.getByTestId('badge')).toHaveTextContent(/^Launch offer: only 5 spots$/)
    expect(screen.getByRole('region', { name: 'Quick action' })).toHaveTextContent('8 slots left this week')
  })
})
