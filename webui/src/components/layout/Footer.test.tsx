import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockFetch, renderApp } from '@test/utils'

describe('Footer', () => {
  it('has the 15 footer links, the current year, Made in Europe and EN', async () => {
    mockFetch((_method, url) =>
      url === '/api/pages/about'
        ? { status: 200, body: { name: 'about', title: 'About us', html: '<h1>About us</h1>' } }
        : { status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } },
    )
    renderApp('/about')
    await screen.findByRole('heading', { level: 1, name: 'About us' })
    const footer = within(screen.getByRole('contentinfo'))
    const expected = ['/how-it-works', '/features', '/pricing', '/blog', '/about', '/contact', '/careers', '/faq', '/privacy', '/terms', '/cookies', '/imprint', '/withdrawal', '/withdraw', '/cancel']
    const hrefs = footer.getAllByRole('link').map((a) => a.getAttribute('href'))
    for (const href of expected) expect(hrefs).toContain(href)
    expect(hrefs.filter((h) => h !== '/')).toHaveLength(15)
    for (const heading of ['Product', 'Company', 'Legal']) {
      expect(footer.getByRole('heading', { name: heading })).toBeInTheDocument()
    }
    expect(footer.getByText(`© ${new Date().getFullYear()} agency. All rights reserved.`)).toBeInTheDocument()
    expect(footer.getByText('Made in Europe')).toBeInTheDocument()
    expect(footer.getByText('EN')).toBeInTheDocument()
  })
})
