import { useEffect, useId, useRef } from 'react'
import { cx } from '../../lib/cx'
import { scrollToId } from '../../lib/scroll'
import { isTooSlow, layoutShift, milliseconds, ratingFor, seconds } from './speed-test'
import type { SpeedTestOut } from './use-speed-test'
import { Container } from '../../components/ui/Section'
import { FastPanel, TooSlowPanel } from './TooSlowPanel'

type Result = NonNullable<SpeedTestOut['result']>

const FIELD_NAMES: Readonly<Record<string, string>> = {
  LCP: 'Largest Contentful Paint',
  INP: 'Interaction to Next Paint',
  CLS: 'Cumulative Layout Shift',
}
const FIELD_CATEGORIES: Readonly<Record<string, string>> = { FAST: 'Good', AVERAGE: 'Needs improvement', SLOW: 'Poor' }
const PROVIDERS: Readonly<Record<Result['provider'], string>> = {
  psi: 'Google PageSpeed Insights',
  lighthouse: 'Lighthouse',
}

/** The score as a ring: presentation attributes only (no style attribute under the CSP). */
function ScoreDial({ score }: { score: number }) {
  const rating = ratingFor(score)
  return (
    <div className={cx('score-dial', `score-dial--${rating.tone}`)}>
      <span className="score-dial__ring" aria-hidden="true">
        <svg viewBox="0 0 36 36" width="144" height="144" focusable="false">
          <circle className="score-dial__track" cx="18" cy="18" r="15.5" />
          <circle className="score-dial__value" cx="18" cy="18" r="15.5" pathLength="100" strokeDasharray={`${score} 100`} />
        </svg>
        <span className="score-dial__number">{score}</span>
      </span>
      <p className="score-dial__rating">
        <span className="visually-hidden">PageSpeed score {score} out of 100, rated </span>
        {rating.label}
      </p>
    </div>
  )
}

function fieldValue(name: string, percentile: number): string {
  if (name === 'CLS') return layoutShift(percentile)
  return name === 'LCP' ? seconds(percentile) : milliseconds(percentile)
}

const RESULT_ID = 'speed-results'

export interface SpeedResultProps {
  test: SpeedTestOut & { result: Result }
}

/**
 * The result panel: score and rating, speed index and total blocking time (and the other
 * figures when the provider gave them), real-visitor data when Google has it, the largest
 * opportunities, then 'Too Slow' below 90. It takes the focus when it appears, so screen
 * readers announce it and the page scrolls to it.
 */
export function SpeedResult({ test }: SpeedResultProps) {
  const id = useId()
  const ref = useRef<HTMLElement>(null)
  const { result, domain } = test
  useEffect(() => {
    // Focus (announced by screen readers) without the browser's own jump, which centres a
    // panel taller than the screen; then the panel's top is scrolled under the header.
    ref.current?.focus({ preventScroll: true })
    scrollToId(RESULT_ID)
  }, [test.id])

  const more: [string, string, string][] = []
  if (result.largest_contentful_paint_ms !== null)
    more.push(['Largest Contentful Paint', seconds(result.largest_contentful_paint_ms), 'When the largest text or image is on screen.'])
  if (result.first_contentful_paint_ms !== null)
    more.push(['First Contentful Paint', seconds(result.first_contentful_paint_ms), 'When the first text or image appears.'])
  if (result.cumulative_layout_shift !== null)
    more.push(['Cumulative Layout Shift', layoutShift(result.cumulative_layout_shift), 'How much the page jumps while it loads (0 is best).'])

  return (
    <section ref={ref} id={RESULT_ID} className="section speedtest-result" tabIndex={-1} aria-labelledby={`${id}-title`}>
      <Container size="md">
        <h2 id={`${id}-title`} className="speedtest-result__title">
          Speed results for {domain}
        </h2>
        <p className="speedtest-result__meta">
          {test.strategy === 'desktop' ? 'Desktop' : 'Mobile'} test, measured by {PROVIDERS[result.provider]}.
        </p>
        <div className="speedtest-result__main">
          <ScoreDial score={result.score} />
          <dl className="metric-list">
            <div className="metric">
              <dt>Speed Index</dt>
              <dd className="metric__value">{seconds(result.speed_index_ms)}</dd>
              <dd className="metric__hint">How quickly the content of the page becomes visible.</dd>
            </div>
            <div className="metric">
              <dt>Total Blocking Time</dt>
              <dd className="metric__value">{milliseconds(result.total_blocking_time_ms)}</dd>
              <dd className="metric__hint">How long the page is too busy to react to a tap while it loads.</dd>
            </div>
            {more.map(([name, value, hint]) => (
              <div className="metric" key={name}>
                <dt>{name}</dt>
                <dd className="metric__value">{value}</dd>
                <dd className="metric__hint">{hint}</dd>
              </div>
            ))}
          </dl>
        </div>

        {result.field_data.length > 0 && (
          <div className="speedtest-result__block">
            <h3 className="speedtest-result__subtitle">What real visitors experienced</h3>
            <p className="speedtest-result__note">Chrome users of your site over the last 28 days (75th percentile).</p>
            <ul className="field-data">
              {result.field_data.map((metric) => (
                <li key={metric.name} className={cx('field-data__item', `field-data__item--${metric.category.toLowerCase()}`)}>
                  <span className="field-data__name">{FIELD_NAMES[metric.name] ?? metric.name}</span>
                  <span className="field-data__value">{fieldValue(metric.name, metric.percentile)}</span>
                  <span className="field-data__category">{FIELD_CATEGORIES[metric.category] ?? metric.category}</span>
                </li>
              ))}
            </ul>
          </div>
        )}

        {result.opportunities.length > 0 && (
          <div className="speedtest-result__block">
            <h3 className="speedtest-result__subtitle">What slows it down most</h3>
            <ol className="opportunities">
              {result.opportunities.slice(0, 3).map((item) => (
                <li key={item.title}>
                  <span>{item.title}</span>
                  <span className="opportunities__saving">could save about {seconds(item.savings_ms)}</span>
                </li>
              ))}
            </ol>
          </div>
        )}

        {isTooSlow(result.score) ? <TooSlowPanel score={result.score} /> : <FastPanel />}
      </Container>
    </section>
  )
}
