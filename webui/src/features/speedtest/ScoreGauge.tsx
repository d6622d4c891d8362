import { cx } from '../../lib/cx'
import { ratingFor } from './speed-test'

export interface ScoreGaugeProps {
  /** Integer 0-100. The ring length comes from a CSS class (no inline style under the CSP). */
  score: 48 | 99
  /** "Before" / "After". */
  label: string
}

/**
 * A PageSpeed score drawn as a ring (SVG + CSS). The visual is hidden from assistive
 * technology; one sentence says the same in words.
 */
export function ScoreGauge({ score, label }: ScoreGaugeProps) {
  const rating = ratingFor(score)
  return (
    <div className={cx('score-gauge', `score-gauge--${rating.tone}`)}>
      <span className="visually-hidden">
        {label}: PageSpeed score {score} out of 100, rated {rating.label}.
      </span>
      <span className="score-gauge__label" aria-hidden="true">
        {label}
      </span>
      <span className="score-gauge__dial" aria-hidden="true">
        <svg viewBox="0 0 36 36" width="128" height="128" focusable="false">
          <circle className="score-gauge__track" cx="18" cy="18" r="15.5" />
          <circle className={cx('score-gauge__ring', `score-gauge__ring--${score}`)} cx="18" cy="18" r="15.5" pathLength="100" />
        </svg>
        <span className="score-gauge__value">{score}</span>
      </span>
      <span className="score-gauge__rating" aria-hidden="true">
        {rating.label}
      </span>
    </div>
  )
}
