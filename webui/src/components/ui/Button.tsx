import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react'
import { Link, type LinkProps } from '../../lib/router'
import { cx } from '../../lib/cx'
import { Spinner } from './Spinner'

export type ButtonVariant = 'primary' | 'outline' | 'ghost' | 'danger'
export type ButtonSize = 'sm' | 'md' | 'lg'

interface StyleProps {
  variant?: ButtonVariant
  size?: ButtonSize
  /** Full width. */
  block?: boolean
}

export function buttonClass({ variant = 'primary', size = 'md', block = false }: StyleProps, extra?: string) {
  return cx('btn', `btn--${variant}`, `btn--${size}`, block && 'btn--block', extra)
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, StyleProps {
  /** Shows a spinner, sets aria-busy and disables the button. */
  busy?: boolean
  children: ReactNode
  ref?: Ref<HTMLButtonElement>
}

export function Button({
  variant,
  size,
  block,
  busy = false,
  disabled,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClass({ variant, size, block }, className)}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy && <Spinner label={null} size="sm" />}
      {children}
    </button>
  )
}

export interface ButtonLinkProps extends LinkProps, StyleProps {}

/** A react-router Link styled as a button. */
export function ButtonLink({ variant, size, block, className, ...rest }: ButtonLinkProps) {
  return <Link className={buttonClass({ variant, size, block }, className)} {...rest} />
}
