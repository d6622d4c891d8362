import { LockIcon } from '../../components/icons/LockIcon'

const ROWS: [string, string, string][] = [
  ['Strategy', 'Needs Work', 'poor'],
  ['Speed', 'Too Slow (3.1s)', 'poor'],
  ['AI Readiness', 'Low', 'fair'],
]

/**
 * The lead page's pre-scan teaser: a static block whose verdicts are blurred until the
 * visitor asks for the report. Nothing in it is measured; the words say so to screen readers.
 */
export function PreScan() {
  return (
    <div className="pre-scan">
      <p className="pre-scan__title">Your website pre-scan</p>
      <ul className="pre-scan__rows">
        {ROWS.map(([name, verdict, tone]) => (
          <li key={name} className="pre-scan__row">
            <span className="pre-scan__name">{name}</span>
            <span className={`pre-scan__verdict pre-scan__verdict--${tone}`} aria-hidden="true">
              {verdict}
            </span>
          </li>
        ))}
      </ul>
      <p className="pre-scan__lock">
        <LockIcon size={18} />
        <span>Enter your website to unlock your full report.</span>
      </p>
    </div>
  )
}
