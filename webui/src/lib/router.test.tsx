import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, useLocation } from 'react-router-dom'
import { describe, expect, it } from 'vitest'
import { isActivePath, Link, NavLink, Redirect, RouteParamsProvider, useRouteParams } from './router'

function Where() {
  const location = useLocation()
  return <output aria-label="location">{`${location.pathname}${location.search}${location.hash}|${JSON.stringify(location.state)}`}</output>
}

function renderAt(path: string, ui: React.ReactNode) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      {ui}
      <Where />
    </MemoryRouter>,
  )
}

describe('Link', () => {
  it('renders the href and navigates in the app on a plain click', async () => {
    renderAt('/', <Link to="/start?type=website&plan=starter" state={{ from: 'home' }}>Start</Link>)
    const link = screen.getByRole('link', { name: 'Start' })
    expect(link).toHaveAttribute('href', '/start?type=website&plan=starter')
    await userEvent.click(link)
    expect(screen.getByLabelText('location')).toHaveTextContent('/start?type=website&plan=starter|{"from":"home"}')
  })

  it('leaves modified clicks and other targets to the browser', () => {
    renderAt('/', <><Link to="/a">A</Link><Link to="/b" target="_blank">B</Link></>)
    for (const modifier of ['ctrlKey', 'metaKey', 'shiftKey', 'altKey'] as const) {
      const notHandled = fireEvent.click(screen.getByRole('link', { name: 'A' }), { [modifier]: true })
      expect(notHandled, modifier).toBe(true) // default not prevented: the browser opens it
    }
    expect(fireEvent.click(screen.getByRole('link', { name: 'B' }))).toBe(true)
    expect(screen.getByLabelText('location')).toHaveTextContent('/|')
  })

  it('runs its own onClick first and respects preventDefault there', async () => {
    renderAt('/', <Link to="/a" onClick={(event) => event.preventDefault()}>A</Link>)
    await userEvent.click(screen.getByRole('link', { name: 'A' }))
    expect(screen.getByLabelText('location')).toHaveTextContent('/|')
  })
})

describe('NavLink', () => {
  it('marks the current page, and its sub-pages unless end', () => {
    renderAt(
      '/dashboard/websites/4',
      <>
        <NavLink to="/dashboard" end className="nav">Home</NavLink>
        <NavLink to="/dashboard/websites" className="nav">Websites</NavLink>
      </>,
    )
    expect(screen.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current')
    expect(screen.getByRole('link', { name: 'Home' })).toHaveClass('nav', { exact: true })
    expect(screen.getByRole('link', { name: 'Websites' })).toHaveAttribute('aria-current', 'page')
    expect(screen.getByRole('link', { name: 'Websites' })).toHaveClass('nav active', { exact: true })
  })

  it('isActivePath tolerates a trailing slash and never treats / as a prefix', () => {
    expect(isActivePath('/dashboard/', '/dashboard', true)).toBe(true)
    expect(isActivePath('/dashboardx', '/dashboard')).toBe(false)
    expect(isActivePath('/pricing', '/')).toBe(false)
    expect(isActivePath('/', '/')).toBe(true)
  })
})

describe('Redirect and route params', () => {
  it('replaces the location once, with state', () => {
    renderAt('/dashboard', <Redirect to="/login" state={{ from: '/dashboard' }} />)
    expect(screen.getByLabelText('location')).toHaveTextContent('/login|{"from":"/dashboard"}')
  })

  it('hands the matched params to the page', () => {
    function Slug() {
      return <p>{useRouteParams().slug}</p>
    }
    render(
      <RouteParamsProvider value={{ slug: 'fast-sites' }}>
        <Slug />
      </RouteParamsProvider>,
    )
    expect(screen.getByText('fast-sites')).toBeInTheDocument()
  })
})
