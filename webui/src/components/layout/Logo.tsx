import { Link } from '../../lib/router'

export function Logo() {
  return (
    <Link to="/" className="logo" aria-label="agency home">
      <svg className="logo__mark" width="28" height="28" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <rect width="64" height="64" rx="14" />
        <path d="M20 46 32 16l12 30m-19-9h14" />
      </svg>
      <span className="logo__word">agency</span>
    </Link>
  )
}
