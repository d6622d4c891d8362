import { useId } from 'react'
import { chartGeometry, formatWhen, historySummary, type ScorePoint } from './sites'
import { cx } from '../../lib/cx'

const WIDTH = 640
const HEIGHT = 220

export interface ScoreChartProps {
  domain: string
  history: readonly ScorePoint[]
  /** A heading level for the table's caption context (visual title is the page's). */
  compact?: boolean
}

function band(score: number): 'good' | 'fair' | 'poor' {
  if (score >= 90) return 'good'
  if (score >= 70) return 'fair'
  return 'poor'
}

/**
 * The speed-score history as a line chart (SVG, presentation attributes only: no style
 * attribute under the CSP), named by a one-sentence summary; screen readers get a table of the
 * same figures instead of the drawing.
 */
export function ScoreChart({ domain, history, compact = false }: ScoreChartProps) {
  const id = useId()
  const height = compact ? 160 : HEIGHT
  const geometry = chartGeometry(history, WIDTH, height, 18)
  const summary = historySummary(domain, history)
  if (history.length === 0) {
    return <p className="score-chart__empty">{summary} Run a speed test to start the chart.</p>
  }
  return (
    <figure className={cx('score-chart', compact && 'score-chart--compact')} data-points={history.length}>
      <svg
        className="score-chart__svg"
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-labelledby={`${id}-summary`}
        focusable="false"
      >
        <line className="score-chart__axis" x1="18" x2={WIDTH - 18} y1={height - 18} y2={height - 18} />
        <line className="score-chart__good" x1="18" x2={WIDTH - 18} y1={geometry.goodY} y2={geometry.goodY} />
        <text className="score-chart__label" x={WIDTH - 20} y={geometry.goodY - 4} textAnchor="end">
          90
        </text>
        <text className="score-chart__label" x="20" y="14">
          100
        </text>
        <text className="score-chart__label" x="20" y={height - 22}>
          0
        </text>
        {history.length > 1 && <path className="score-chart__line" d={geometry.path} fill="none" />}
        {geometry.points.map((p, i) => (
          <circle
            key={`${p.at}-${i}`}
            className={cx('score-chart__point', `score-chart__point--${band(p.score)}`)}
            cx={p.x}
            cy={p.y}
            r="5"
          />
        ))}
      </svg>
      <figcaption id={`${id}-summary`} className="score-chart__caption">
        {summary}
      </figcaption>
      <table className="visually-hidden">
        <caption>Speed scores of {domain}, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Tested</th>
            <th scope="col">Score out of 100</th>
          </tr>
        </thead>
        <tbody>
          {history.map((p, i) => (
            <tr key={`${p.at}-${i}`}>
              <td>{formatWhen(p.at)}</td>
              <td>{p.score}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
