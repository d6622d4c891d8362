import { render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, describe, expect, it } from 'vitest'
import { resetSiteConfigForTests } from '../../lib/site-config'
import { Logo } from './Logo'

/** The page as the server sends it: `<meta name="agency-site">` naming this brand. */
function withBrand(brandName: string) {
  const meta = document.createElement('meta')
  meta.name = 'agency-site'
  meta.content = JSON.stringify({ brandName })
  document.head.append(meta)
  resetSiteConfigForTests()
}

afterEach(() => {
  document.head.querySelectorAll('meta[name="agency-site"]').forEach((meta) => meta.remove())
  resetSiteConfigForTests()
})

const renderLogo = () =>
  render(
    <MemoryRouter>
      <Logo />
    </MemoryRouter>,
  )

describe('Logo', () => {
  it('shows the default brand without a configured one', () => {
    renderLogo()
    const link = screen.getByRole('link', { name: 'agency home' })
    expect(link).toHaveAttribute('href', '/')
    expect(link).toHaveTextContent('agency')
  })

  it('shows the configured brand as its word and in its label', () => {
    withBrand('Pixelwerk & Co')
    renderLogo()
    const link = screen.getByRole('link', { name: 'Pixelwerk & Co home' })
    expect(link.querySelector('.logo__word')).toHaveTextContent(/^Pixelwerk & Co$/)
    expect(link).not.toHaveTextContent('agency')
  })
})
