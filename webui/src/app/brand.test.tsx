import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { mockVisitor, renderApp } from '@test/utils'
import { resetSiteConfigForTests } from '../lib/site-config'
import { ROUTE_TEXT } from './route-text'
import { fullTitle } from './routes'

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

const content = (selector: string) => document.head.querySelector(selector)?.getAttribute('content')

describe('the configured brand in the page head and the shell', () => {
  it('ends every title with the default brand without a configured one', () => {
    expect(fullTitle('Log in')).toBe('Log in | agency')
  })

  it('names the configured brand in the title, og:site_name, the description, logo and footer', async () => {
    withBrand('Pixelwerk')
    mockVisitor()
    renderApp('/login')
    await screen.findByRole('heading', { level: 1, name: 'Welcome back.' })
    await waitFor(() => expect(document.title).toBe('Log in | Pixelwerk'))
    expect(content('meta[property="og:site_name"]')).toBe('Pixelwerk')
    expect(content('meta[property="og:title"]')).toBe('Log in | Pixelwerk')
    expect(content('meta[name="description"]')).toBe('Log in to your Pixelwerk dashboard to see your websites, plan and billing.')
    expect(screen.getAllByRole('link', { name: 'Pixelwerk home' }).length).toBeGreaterThan(0)
    expect(within(screen.getByRole('contentinfo')).getByText(/© \d{4} Pixelwerk\. All rights reserved\./)).toBeInTheDocument()
    expect(document.title).not.toContain('agency')
  })

  it('leaves no {brand} placeholder outside the descriptions', () => {
    for (const [path, [title, description]] of Object.entries(ROUTE_TEXT)) {
      expect(title, path).not.toContain('{')
      expect(description.replaceAll('{brand}', ''), path).not.toMatch(/[{}]/)
    }
  })
})
