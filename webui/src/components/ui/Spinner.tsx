import { cx } from '../../lib/cx'

export interface SpinnerProps {
  /** Accessible label; pass `null` for a decorative spinner (e.g. inside a busy button). */
  label?: string | null
  size?: 'sm' | 'md' | 'lg'
  className?: string
}

export function Spinner({ label = 'Loading', size = 'md', className }: SpinnerProps) {
  if (label === null) {
    return <span className={cx('spinner', `spinner--${size}`, className)} aria-hidden="true" />
  }
  return (
    <span className={cx('spinner-wrap', className)} role="status">
      <span className={cx('spinner', `spinner--${size}`)} aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  )
}
