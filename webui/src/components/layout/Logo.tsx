import { Link } from '../../lib/router'
import { siteConfig } from '../../lib/site-config'

export function Logo() {
  // The configured brand (AGENCY_BRAND_NAME): a token in the prerendered HTML that the server fills.
  const brand = siteConfig().brandName
  return (
    <Link to="/" className="logo" aria-label={`${brand} home`}>
      <svg className="logo__mark" width="28" height="28" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <rect width="64" height="64" rx="14" />
        <path d="M20 46 32 16l12 30m-19-9h14" />
      </svg>
      <span className="logo__word">{brand}</span>
    </Link>
  )
}
