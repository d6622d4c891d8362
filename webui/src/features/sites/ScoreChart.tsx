import { useId } from 'react'
import { beforeLive, chartGeometry, formatWhen, historySummary, type ScorePoint } from './sites'
import { cx } from '../../lib/cx'

const WIDTH = 640
const HEIGHT = 220

export interface ScoreChartProps {
  domain: string
  history: readonly ScorePoint[]
  /** A heading level for the table's caption context (visual title is the page's). */
  compact?: boolean
  /** When the site went live: a 'Live' marker, the earlier tests drawn as 'before'. */
  liveAt?: string | null
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
export function ScoreChart({ domain, history, compact = false, liveAt = null }: ScoreChartProps) {
  const id = useId()
  const height = compact ? 160 : HEIGHT
  const geometry = chartGeometry(history, WIDTH, height, 18, liveAt)
  const summary = historySummary(domain, history, liveAt)
  const liveX = geometry.liveX
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
        {liveX !== null && (
          <g className="score-chart__live" data-live-x={liveX}>
            <line className="score-chart__live-line" x1={liveX} x2={liveX} y1="4" y2={height - 18} />
            <text className="score-chart__live-label" x={liveX + 4} y="14">
              Live
            </text>
            {geometry.points.some((p) => p.before) && (
              <text className="score-chart__label" x={liveX - 4} y="14" textAnchor="end">
                Before
              </text>
            )}
          </g>
        )}
        {history.length > 1 && <path className="score-chart__line" d={geometry.path} fill="none" />}
        {geometry.points.map((p, i) => (
          <circle
            key={`${p.at}-${i}`}
            className={cx('score-chart__point', `score-chart__point--${band(p.score)}`, p.before && 'score-chart__point--before')}
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
            {liveAt && <th scope="col">Site</th>}
          </tr>
        </thead>
        <tbody>
          {history.map((p, i) => (
            <tr key={`${p.at}-${i}`}>
              <td>{formatWhen(p.at)}</td>
              <td>{p.score}</td>
              {liveAt && <td>{beforeLive(p.at, liveAt) ? 'Before going live' : 'Live site'}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
