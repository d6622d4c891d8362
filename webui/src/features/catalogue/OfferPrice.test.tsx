import { render, screen } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { resetCatalogueCache } from './catalogue'
import { testCatalogue } from '@test/catalogue'
import { mockFetch } from '@test/utils'
import { OfferPrice } from './OfferPrice'

beforeEach(() => resetCatalogueCache())

describe('OfferPrice', () => {
  it('renders a placeholder until the catalogue arrives, then price, struck price and saving', async () => {
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const fn = mockFetch(() => ({ status: 200, body: testCatalogue }))
    const original = fn.getMockImplementation()!
    fn.mockImplementation(async (...args) => {
      await gate
      return original(...args)
    })
    const { container } = render(<OfferPrice planKey="sales-funnel-rebuild-offer" save="amount" />)
    expect(screen.getByText('Loading price')).toBeInTheDocument()
    expect(container).not.toHaveTextContent('€')
    release()
    expect(await screen.findByText('€97')).toBeInTheDocument()
    expect(screen.getByText('€297').closest('s')).not.toBeNull()
    expect(screen.getByText('Save €200')).toBeInTheDocument()
    expect(screen.getByText('one-time payment')).toBeInTheDocument()
  })

  it('says so when the catalogue cannot be loaded', async () => {
    mockFetch(() => ({ status: 500 }))
    render(<OfferPrice planKey="ai-lead-engine" />)
    expect(await screen.findByText('Price currently unavailable. Please reload the page.')).toBeInTheDocument()
  })
})
