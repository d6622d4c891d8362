import { cx } from '../../lib/cx'

export interface ScanProgressProps {
  /** What is being tested. */
  domain: string
  /** 0-100. */
  value: number
  done: boolean
}

/**
 * The scanning display: a native `<progress>` (no inline style under the CSP) with the
 * domain and the percentage. The page's live status region says what happens in words, so
 * the bar itself is not announced at every step.
 */
export function ScanProgress({ domain, value, done }: ScanProgressProps) {
  const percent = Math.floor(value)
  return (
    <div className={cx('scan', done && 'scan--done')}>
      <div className="scan__head">
        <span className="scan__label">{done ? `Tested ${domain}` : `Testing ${domain}…`}</span>
        <span className="scan__percent" aria-hidden="true">
          {percent}%
        </span>
      </div>
      <progress className="scan__bar" max={100} value={value} aria-label={`Speed test of ${domain}`} aria-valuetext={`${percent}%`} />
      {!done && (
        <p className="scan__hint">
          We load your page the way a visitor on a mid-range phone with a mobile connection would. This takes about 25 seconds.
        </p>
      )}
    </div>
  )
}
