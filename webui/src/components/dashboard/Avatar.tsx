import { useState } from 'react'
import { avatarInitial, displayName, type User } from '../../lib/auth'
import { cx } from '../../lib/cx'

export interface AvatarProps {
  user: Pick<User, 'first_name' | 'last_name' | 'email' | 'avatar_url'>
  size?: 'md' | 'lg'
  className?: string
}

/**
 * The user's avatar image, or the first letter of the first name (else of the e-mail).
 * Falls back to the letter when the image cannot load (e.g. the CSP blocks other hosts).
 */
export function Avatar({ user, size = 'md', className }: AvatarProps) {
  const url = user.avatar_url?.trim() || null
  const [failedUrl, setFailedUrl] = useState<string | null>(null)
  const classes = cx('avatar', `avatar--${size}`, className)
  if (url && failedUrl !== url) {
    return (
      <img
        className={classes}
        src={url}
        alt={`Avatar of ${displayName(user)}`}
        width={size === 'lg' ? 48 : 36}
        height={size === 'lg' ? 48 : 36}
        referrerPolicy="no-referrer"
        decoding="async"
        onError={() => setFailedUrl(url)}
      />
    )
  }
  // The letter is decoration drawn by CSS (::before), not text: the user-menu button's visible
  // label is then just the name next to it, which its accessible name starts with (WCAG 2.5.3).
  return (
    <span
      className={cx(classes, 'avatar--letter')}
      aria-hidden="true"
      data-testid="avatar-letter"
      data-initial={avatarInitial(user)}
    />
  )
}
