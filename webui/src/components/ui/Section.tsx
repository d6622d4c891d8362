import type { HTMLAttributes } from 'react'
import { cx } from '../../lib/cx'

export interface ContainerProps extends HTMLAttributes<HTMLDivElement> {
  size?: 'sm' | 'md' | 'lg'
}

export function Container({ size = 'lg', className, ...rest }: ContainerProps) {
  return <div className={cx('container', `container--${size}`, className)} {...rest} />
}

export interface SectionProps extends HTMLAttributes<HTMLElement> {
  tone?: 'plain' | 'muted' | 'accent'
  size?: ContainerProps['size']
}

/** A full-width page band with an inner Container. */
export function Section({ tone = 'plain', size, className, children, ...rest }: SectionProps) {
  return (
    <section className={cx('section', `section--${tone}`, className)} {...rest}>
      <Container size={size}>{children}</Container>
    </section>
  )
}
