import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Button, Checkbox, ErrorBox, Field, Spinner } from '.'

describe('ui components', () => {
  it('Button busy shows a spinner, sets aria-busy and disables', () => {
    render(<Button busy>Save</Button>)
    const button = screen.getByRole('button', { name: 'Save' })
    expect(button).toBeDisabled()
    expect(button).toHaveAttribute('aria-busy', 'true')
    expect(button.querySelector('.spinner')).not.toBeNull()
  })

  it('Field links hint and error with aria-describedby', () => {
    render(<Field label="Email Address" type="email" hint="We never share it." error="Enter a valid e-mail." />)
    const input = screen.getByLabelText('Email Address')
    expect(input).toHaveAttribute('type', 'email')
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(input).toHaveAccessibleDescription('We never share it. Enter a valid e-mail.')
  })

  it('Checkbox is labelled', () => {
    render(<Checkbox label="Remember me" />)
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).not.toBeChecked()
  })

  it('ErrorBox is an alert and Spinner has an accessible label', () => {
    render(
      <>
        <ErrorBox>Something went wrong. Please try again.</ErrorBox>
        <Spinner label="Loading articles" />
      </>,
    )
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong. Please try again.')
    expect(screen.getByRole('status')).toHaveTextContent('Loading articles')
  })
})
