import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, useNavigate } from 'react-router-dom'
import { describe, expect, it } from 'vitest'
import { Link } from './router'
import { useMenu } from './use-menu'

function Menu() {
  const navigate = useNavigate()
  const { open, toggle, close, containerRef, buttonRef } = useMenu()
  return (
    <>
      <div ref={containerRef}>
        <button ref={buttonRef} type="button" aria-expanded={open} onClick={toggle}>
          Menu
        </button>
        <div data-testid="panel" hidden={!open}>
          <Link to="/next">Next page</Link>
          <button type="button" onClick={close}>
            Done
          </button>
        </div>
      </div>
      <button type="button">Elsewhere</button>
      <button type="button" onClick={() => void navigate(-1)}>
        Back
      </button>
      <p>Outside text</p>
    </>
  )
}

function setup() {
  render(
    <MemoryRouter initialEntries={['/']}>
      <Menu />
    </MemoryRouter>,
  )
  const button = screen.getByRole('button', { name: 'Menu' })
  const panel = screen.getByTestId('panel')
  return { button, panel }
}

describe('useMenu', () => {
  it('toggles open and closed from its button, and close() closes', async () => {
    const { button, panel } = setup()
    expect(button).toHaveAttribute('aria-expanded', 'false')
    expect(panel).not.toBeVisible()
    await userEvent.click(button)
    expect(button).toHaveAttribute('aria-expanded', 'true')
    expect(panel).toBeVisible()
    await userEvent.click(button)
    expect(panel).not.toBeVisible()
    await userEvent.click(button)
    await userEvent.click(screen.getByRole('button', { name: 'Done' }))
    expect(panel).not.toBeVisible()
  })

  it('closes on Escape and gives the focus back to its button', async () => {
    const { button, panel } = setup()
    await userEvent.click(button)
    screen.getByRole('link', { name: 'Next page' }).focus()
    await userEvent.keyboard('{Escape}')
    expect(panel).not.toBeVisible()
    expect(button).toHaveFocus()

    // Closed, Escape leaves the focus where it is.
    screen.getByRole('button', { name: 'Elsewhere' }).focus()
    await userEvent.keyboard('{Escape}')
    expect(screen.getByRole('button', { name: 'Elsewhere' })).toHaveFocus()
  })

  it('closes on a mouse or touch press outside, not inside', async () => {
    const { button, panel } = setup()
    await userEvent.click(button)
    fireEvent.mouseDown(screen.getByRole('link', { name: 'Next page' }))
    expect(panel).toBeVisible()
    await userEvent.click(screen.getByText('Outside text'))
    expect(panel).not.toBeVisible()

    await userEvent.click(button)
    fireEvent.touchStart(screen.getByText('Outside text'))
    expect(panel).not.toBeVisible()
  })

  it('closes when focus leaves it (Tab past the last item), not when it moves inside', async () => {
    const { button, panel } = setup()
    await userEvent.click(button)
    await userEvent.tab() // the link
    await userEvent.tab() // Done
    expect(screen.getByRole('button', { name: 'Done' })).toHaveFocus()
    expect(panel).toBeVisible()
    await userEvent.tab()
    expect(screen.getByRole('button', { name: 'Elsewhere' })).toHaveFocus()
    expect(panel).not.toBeVisible()
  })

  it('closes on navigation', async () => {
    const { button, panel } = setup()
    await userEvent.click(button)
    await userEvent.click(screen.getByRole('link', { name: 'Next page' }))
    expect(panel).not.toBeVisible()
    expect(button).toHaveAttribute('aria-expanded', 'false')

    // Back on the page it was opened on, it stays closed.
    await userEvent.click(screen.getByRole('button', { name: 'Back' }))
    expect(panel).not.toBeVisible()
  })
})
