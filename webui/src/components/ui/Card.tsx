import type { HTMLAttributes } from 'react'
import { cx } from '../../lib/cx'

export interface CardProps extends HTMLAttributes<HTMLDivElement> {
  /** Adds a hover lift for clickable/feature cards. */
  interactive?: boolean
  padding?: 'sm' | 'md' | 'lg'
}

export function Card({ interactive = false, padding = 'md', className, ...rest }: CardProps) {
  return <div className={cx('card', `card--pad-${padding}`, interactive && 'card--interactive', className)} {...rest} />
}
