import type { HTMLAttributes } from 'react'
import { cx } from '../../lib/cx'

export type BadgeTone = 'green' | 'yellow' | 'grey' | 'blue' | 'red' | 'purple'

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone
}

export function Badge({ tone = 'grey', className, ...rest }: BadgeProps) {
  return <span className={cx('badge', `badge--${tone}`, className)} {...rest} />
}
