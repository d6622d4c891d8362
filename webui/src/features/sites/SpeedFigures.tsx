import { scoreBand, fieldFigures, formatWhen, resultFigures, type SpeedResult } from './sites'
import { ratingFor } from '../speedtest'
import { cx } from '../../lib/cx'

/** The latest speed result: score and rating, the lab figures, and real-visitor data when Google has it. */
export function SpeedFigures({ result, at }: { result: SpeedResult; at: string | null }) {
  const rating = ratingFor(result.score)
  const field = fieldFigures(result)
  return (
    <div className="speed-figures">
      <p className="speed-figures__score">
        <span className={cx('speed-figures__number', `score--${scoreBand(result.score)}`)}>
          {result.score}
          <span className="speed-figures__max">/100</span>
        </span>
        <span className="speed-figures__rating">{rating.label}</span>
      </p>
      {at && <p className="speed-figures__when">Tested {formatWhen(at)} (mobile).</p>}
      <dl className="speed-figures__list">
        {resultFigures(result).map(([name, value]) => (
          <div key={name} className="speed-figures__item">
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {field.length > 0 && (
        <>
          <h3 className="speed-figures__subtitle">What real visitors experienced</h3>
          <ul className="speed-figures__field">
            {field.map(([name, value, category]) => (
              <li key={name}>
                <span>{name}</span> <strong>{value}</strong> <span className="speed-figures__category">{category}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
