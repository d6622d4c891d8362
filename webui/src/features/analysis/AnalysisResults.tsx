import { useEffect, useId, useRef, type ReactNode } from 'react'
import {
  BLOCKING_CRITICAL_MS,
  INDUSTRY_STANDARD_SECONDS,
  RECOMMENDED_RESPONSE_SECONDS,
  scoreLabel,
  type AnalysisVariant,
} from './analysis'
import { cx } from '../../lib/cx'
import { scrollToId } from '../../lib/scroll'
import { isTooSlow, milliseconds, seconds } from '../speedtest'
import type { AnalysisOut } from './use-analysis'
import { ButtonLink } from '../../components/ui/Button'
import { Container } from '../../components/ui/Section'

type Done = AnalysisOut
type Report = NonNullable<Done['report']>
type Scores = NonNullable<Done['scores']>
type Facts = NonNullable<Done['facts']>
type DerivedScore = 'strategy' | 'funnel' | 'ai_readiness' | 'security'

interface VariantText {
  /** The three derived scores after speed, in order: strategy, funnel, AI readiness (or security). */
  scores: [DerivedScore, string][]
  critical?: string
  overview: string
  stages: string
  touchpoints?: string
  columns: { title: string; names: [string, string, string]; text: string }
  cta: { label: string; note: string }
}

const GENERAL: VariantText = {
  scores: [
    ['strategy', 'Strategy'],
    ['funnel', 'Funnel'],
    ['ai_readiness', 'AI Readiness'],
  ],
  overview: 'Strategy Overview',
  stages: 'Sales Funnel Analysis',
  touchpoints: 'Customer Journey Analysis',
  columns: {
    title: 'AI Opportunities',
    names: ['AI Customer Support', 'AI SEO Opportunities', 'AI Personalization'],
    text: 'Where AI would help this website most, from what is on the page today.',
  },
  cta: { label: 'Implement These Improvements Now', note: "We'll help you implement all AI improvements within 24 hours" },
}

const TEXT: Readonly<Record<AnalysisVariant, VariantText>> = {
  general: GENERAL,
  lead: { ...GENERAL, critical: 'Critical Business Impact Found' },
  technical: {
    scores: [
      ['strategy', 'Architecture'],
      ['funnel', 'Performance'],
      ['security', 'Security'],
    ],
    critical: 'Critical Technical Issues Found',
    overview: 'Technical Architecture Overview',
    stages: 'Performance Analysis',
    columns: {
      title: 'Security Analysis',
      names: ['Transport and Headers', 'Third-Party Scripts', 'Forms and Data'],
      text: 'What we found about how the page is served, what it loads from others and how it handles data.',
    },
    cta: { label: 'Fix Technical Issues Now', note: 'We rebuild your site on a fast, secure stack, live within 24 hours.' },
  },
  agency: {
    scores: [
      ['strategy', 'Client Value'],
      ['funnel', 'Scalability'],
      ['ai_readiness', 'Profitability'],
    ],
    overview: 'Growth Strategy Overview',
    stages: 'Revenue Opportunities',
    touchpoints: 'Growth Roadmap',
    columns: {
      title: 'Services to Offer',
      names: ['Premium Services', 'Growth Services', 'Client Services'],
      text: 'What your agency could sell this client, from what is on the site today.',
    },
    cta: { label: 'Scale Your Agency Now', note: 'We build and deliver for your clients under your name, within 24 hours.' },
  },
}

function ScoreTile({ name, score, variant, children }: { name: string; score: number; variant: AnalysisVariant; children?: ReactNode }) {
  const { label, tone } = scoreLabel(score, variant)
  return (
    <div className={cx('score-tile', `score-tile--${tone}`)}>
      <dt className="score-tile__name">{name}</dt>
      <dd className="score-tile__value">
        {score}
        <span className="visually-hidden"> out of 100</span>
      </dd>
      <dd className="score-tile__label">{label}</dd>
      {children}
    </div>
  )
}

/** The speed card: the score (and 'Fix Now' below 90), or still measuring, or the test's error. */
function SpeedTile({ analysis, variant }: { analysis: Done; variant: AnalysisVariant }) {
  const test = analysis.speed_test
  const result = test?.result
  if (test && test.status === 'done' && result) {
    return (
      <ScoreTile name="Speed" score={result.score} variant={variant}>
        <dd className="score-tile__detail">
          Speed index {seconds(result.speed_index_ms)}, blocking time {milliseconds(result.total_blocking_time_ms)}
        </dd>
        {isTooSlow(result.score) && (
          <dd>
            <ButtonLink to="/start" size="sm" className="score-tile__fix">
              Fix Now
            </ButtonLink>
          </dd>
        )}
      </ScoreTile>
    )
  }
  const failed = !test || test.status === 'failed'
  return (
    <div className={cx('score-tile', failed ? 'score-tile--error' : 'score-tile--waiting')}>
      <dt className="score-tile__name">Speed</dt>
      <dd className="score-tile__message">
        {failed ? (test?.error ?? 'The speed test could not run.') : 'Still measuring…'}
      </dd>
    </div>
  )
}

function List({ items, empty }: { items: readonly string[]; empty: string }) {
  if (items.length === 0) return <p className="analysis-empty">{empty}</p>
  return (
    <ul className="analysis-list">
      {items.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
    </ul>
  )
}

function Block({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  const id = useId()
  return (
    <section className={cx('analysis-block', className)} aria-labelledby={id}>
      <h3 id={id} className="analysis-block__title">
        {title}
      </h3>
      {children}
    </section>
  )
}

/** The 'Critical ... Found' box: the spec's figures for the page, then the grounded findings. */
function CriticalBox({ title, analysis, variant }: { title: string; analysis: Done; variant: AnalysisVariant }) {
  const id = useId()
  const scores = analysis.scores
  const result = analysis.speed_test?.status === 'done' ? analysis.speed_test.result : null
  const figures: [string, string][] = []
  const load = scores?.load_time_seconds ?? null
  if (variant === 'lead') {
    if (scores?.visitors_lost_percent != null)
      figures.push(['Visitors lost before the page loads', `${scores.visitors_lost_percent}%`])
    if (load !== null) figures.push([`Load time (industry standard: under ${INDUSTRY_STANDARD_SECONDS} s)`, `${load.toFixed(1)} s`])
  }
  if (variant === 'technical') {
    if (load !== null) figures.push([`Until content shows (recommended response: under ${RECOMMENDED_RESPONSE_SECONDS} s)`, `${load.toFixed(1)} s`])
    if (result)
      figures.push([`Total blocking time (critical at ${BLOCKING_CRITICAL_MS} ms)`, milliseconds(result.total_blocking_time_ms)])
  }
  if (analysis.critical_issues.length === 0 && figures.length === 0) return null
  return (
    <section className="critical-box" aria-labelledby={id}>
      <h3 id={id} className="critical-box__title">
        <span className="critical-box__sign" aria-hidden="true">
          !
        </span>
        {title}
      </h3>
      {figures.length > 0 && (
        <dl className="critical-box__figures">
          {figures.map(([name, value]) => (
            <div key={name} className="critical-figure">
              <dt>{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {analysis.critical_issues.length > 0 && <List items={analysis.critical_issues} empty="" />}
    </section>
  )
}

/** The agency page's figures: revenue increase and the recurring-revenue opportunity. */
function RevenueBox({ scores }: { scores: Scores }) {
  if (scores.revenue_increase_percent === null && scores.recurring_revenue === null) return null
  return (
    <dl className="revenue-box">
      {scores.revenue_increase_percent !== null && (
        <div>
          <dt>Potential revenue increase</dt>
          <dd>+{scores.revenue_increase_percent}%</dd>
        </div>
      )}
      {scores.recurring_revenue !== null && (
        <div>
          <dt>Recurring-revenue opportunity</dt>
          <dd>{scores.recurring_revenue}</dd>
        </div>
      )}
    </dl>
  )
}

const none = 'None found'
const joined = (items: readonly string[]) => (items.length > 0 ? items.join(', ') : none)

/** "What we found on your page": the facts the report is grounded in. */
function FactsList({ facts }: { facts: Facts }) {
  const rows: [string, string][] = [
    ['Page title', facts.title ?? none],
    ['Meta description', facts.meta_description ?? none],
    ['Calls to action', joined(facts.calls_to_action)],
    ['Forms', facts.forms === 0 ? none : `${facts.forms} (${facts.form_fields} fields in all)`],
    ['Booking and chat', joined([...facts.booking_widgets, ...facts.chat_widgets])],
    ['Analytics', joined(facts.analytics)],
    ['Images without alt text', `${facts.images_without_alt} of ${facts.images}`],
    ['Contact', [facts.phone && 'phone number', facts.email && 'e-mail address'].filter(Boolean).join(' and ') || none],
    ['HTTPS', facts.https ? 'Yes' : 'No'],
  ]
  return (
    <dl className="facts-list">
      {rows.map(([name, value]) => (
        <div key={name} className="facts-list__row">
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}

function Stages({ report }: { report: Report }) {
  if (report.sales_funnel.stages.length === 0) return <p className="analysis-empty">Nothing to report here.</p>
  return (
    <ol className="analysis-cards">
      {report.sales_funnel.stages.map((stage, i) => (
        <li key={i} className="analysis-card-item">
          <h4 className="analysis-card-item__title">{stage.name}</h4>
          <p>{stage.description}</p>
          {stage.improvements.length > 0 && <List items={stage.improvements} empty="" />}
        </li>
      ))}
    </ol>
  )
}

function Touchpoints({ report }: { report: Report }) {
  if (report.customer_journey.touchpoints.length === 0) return <p className="analysis-empty">Nothing to report here.</p>
  return (
    <ol className="analysis-cards">
      {report.customer_journey.touchpoints.map((point, i) => (
        <li key={i} className="analysis-card-item">
          <h4 className="analysis-card-item__title">{point.stage}</h4>
          <p>{point.description}</p>
          {point.opportunities.length > 0 && <List items={point.opportunities} empty="" />}
        </li>
      ))}
    </ol>
  )
}

const RESULTS_ID = 'analysis-results'

export interface AnalysisResultsProps {
  analysis: Done
  variant: AnalysisVariant
}

/**
 * The report: the summary scores (speed with 'Fix Now' below 90), the 'Critical ... Found' box
 * (lead, technical) or the revenue figures (agency), the page's sections and columns, the facts
 * it is grounded in, who wrote it, and the call to action to /start. It takes the focus when it
 * appears, so screen readers announce it and the page scrolls to it.
 */
export default function AnalysisResults({ analysis, variant }: AnalysisResultsProps) {
  const id = useId()
  const ref = useRef<HTMLElement>(null)
  const text = TEXT[variant]
  const { report, scores, facts } = analysis
  useEffect(() => {
    ref.current?.focus({ preventScroll: true })
    scrollToId(RESULTS_ID)
  }, [analysis.id])

  const ai = report?.ai_opportunities
  return (
    <section ref={ref} id={RESULTS_ID} className="section analysis-results" tabIndex={-1} aria-labelledby={`${id}-title`}>
      <Container>
        <h2 id={`${id}-title`} className="analysis-results__title">
          Analysis results for {analysis.domain}
        </h2>
        {analysis.generated_note && <p className="analysis-results__note">{analysis.generated_note}</p>}

        {scores && (
          <dl className="score-tiles" aria-label="Scores">
            <SpeedTile analysis={analysis} variant={variant} />
            {text.scores.map(([key, name]) => (
              <ScoreTile key={key} name={name} score={scores[key]} variant={variant} />
            ))}
          </dl>
        )}

        {text.critical && <CriticalBox title={text.critical} analysis={analysis} variant={variant} />}
        {variant === 'agency' && scores && <RevenueBox scores={scores} />}

        {report && (
          <>
            <Block title={text.overview}>
              <p className="analysis-overview">{report.overview}</p>
              {variant === 'technical' && <Touchpoints report={report} />}
            </Block>
            <Block title={text.stages}>
              <Stages report={report} />
            </Block>
            {text.touchpoints && (
              <Block title={text.touchpoints}>
                <Touchpoints report={report} />
              </Block>
            )}
            {ai && (
              <Block title={text.columns.title}>
                <p className="analysis-block__text">{text.columns.text}</p>
                <div className="analysis-columns">
                  {[ai.customer_support, ai.seo, ai.personalization].map((items, i) => (
                    <div key={text.columns.names[i]} className="analysis-column">
                      <h4 className="analysis-column__title">{text.columns.names[i]}</h4>
                      <List items={items} empty="Nothing to add here." />
                    </div>
                  ))}
                </div>
              </Block>
            )}
          </>
        )}

        {facts && (
          <Block title="What we found on your page" className="analysis-block--facts">
            <p className="analysis-block__text">
              Read from {facts.final_url} (HTTP {facts.http_status}). Every finding above comes from these facts and the speed test.
            </p>
            <FactsList facts={facts} />
          </Block>
        )}

        <div className="analysis-cta">
          <ButtonLink to="/start" size="lg">
            {text.cta.label}
          </ButtonLink>
          <p className="analysis-cta__note">{text.cta.note}</p>
        </div>
      </Container>
    </section>
  )
}
