import { render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { describe, expect, it } from 'vitest'
import { StickyMobileCta } from './StickyMobileCta'

describe('StickyMobileCta', () => {
  it('renders a labelled bar with the exact link', () => {
    render(
      <MemoryRouter>
        <StickyMobileCta to="/start?type=ai&plan=ai-lead-engine" label="Claim Your Spot" note="Only 5 spots" />
      </MemoryRouter>,
    )
    const bar = screen.getByRole('region', { name: 'Quick action' })
    expect(bar).toHaveClass('sticky-cta')
    expect(bar).toHaveTextContent('Only 5 spots')
    expect(screen.getByRole('link', { name: 'Claim Your Spot' })).toHaveAttribute('href', '/start?type=ai&plan=ai-lead-engine')
  })
})
