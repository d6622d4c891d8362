import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { FaqAccordion } from './FaqAccordion'

const items = [
  { question: 'One?', answer: 'First answer' },
  { question: 'Two?', answer: 'Second answer' },
  { question: 'Three?', answer: 'Third answer' },
]

describe('FaqAccordion', () => {
  it('keeps at most one item open, wired with aria-expanded/aria-controls', async () => {
    render(<FaqAccordion items={items} />)
    const [one, two, three] = screen.getAllByRole('button') as [HTMLElement, HTMLElement, HTMLElement]
    const expanded = () => screen.getAllByRole('button').map((b) => b.getAttribute('aria-expanded'))
    expect(expanded()).toEqual(['true', 'false', 'false'])
    const panel = document.getElementById(one.getAttribute('aria-controls') as string) as HTMLElement
    expect(panel).toHaveTextContent('First answer')
    expect(panel).toBeVisible()

    await userEvent.click(two)
    expect(expanded()).toEqual(['false', 'true', 'false'])
    expect(panel).not.toBeVisible()
    expect(screen.getByText('Second answer')).toBeVisible()

    await userEvent.click(three)
    expect(expanded()).toEqual(['false', 'false', 'true'])
    await userEvent.click(three)
    expect(expanded()).toEqual(['false', 'false', 'false'])
  })
})
