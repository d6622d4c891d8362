import { useId, useState, type FormEvent, type ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadError } from '../../../components/dashboard/LoadState'
import { Button } from '../../../components/ui/Button'
import { Spinner } from '../../../components/ui/Spinner'
import { cx } from '../../../lib/cx'
import { useApiData } from '../../../lib/use-api-data'
import { BarChart, ChartFrame, LineChart, TableCard, type Bar, type TableData } from '../charts'
import {
  ARROWS,
  PERIODS,
  change,
  count,
  csvMoney,
  dayTime,
  fetchOverview,
  hours,
  isEmpty,
  money,
  overviewKey,
  percentOf,
  periodFromParams,
  periodParams,
  rangeProblem,
  shortDay,
  type Compared,
  type Definitions,
  type Overview,
  type PeriodChoice,
  type PeriodKey,
} from '../overview'
import '../overview.css'

/**
 * The admins' home (/dashboard for an admin): how the business is doing in a period, each
 * figure beside the previous period, with the MRR, its movements and the funnel drawn as
 * charts (each with its table and CSV), revenue by plan, payments to follow up, websites and
 * support. The period lives in the address (?period=&start=&end=).
 */
export default function OverviewPage() {
  const [params, setParams] = useSearchParams()
  const choice = periodFromParams(params)
  const overview = useApiData(overviewKey(choice), () => fetchOverview(choice))

  const choose = (next: PeriodChoice) => setParams(periodParams(next), { replace: true })

  return (
    <div className="dash-page ov-page">
      <DashPageHeader heading="Overview" text="How the business is doing, each figure beside the period before it." />
      <PeriodPicker
        key={overviewKey(choice)}
        choice={choice}
        shown={overview.data?.period ?? null}
        onChoose={choose}
      />
      {overview.error !== null ? (
        <LoadError title="We could not load the overview." onRetry={overview.reload}>
          {overview.error}
        </LoadError>
      ) : overview.data === null ? (
        <OverviewSkeleton />
      ) : (
        <OverviewBody data={overview.data} />
      )}
    </div>
  )
}

// ---- The period ----------------------------------------------------------------------------------

function PeriodPicker({
  choice,
  shown,
  onChoose,
}: {
  choice: PeriodChoice
  shown: Overview['period'] | null
  onChoose: (choice: PeriodChoice) => void
}) {
  const selectId = useId()
  const startId = useId()
  const endId = useId()
  const errorId = useId()
  const [draft, setDraft] = useState<PeriodKey>(choice.period)
  const [start, setStart] = useState(choice.start || shown?.start || '')
  const [end, setEnd] = useState(choice.end || shown?.end || '')
  const [problem, setProblem] = useState<string | null>(null)

  const pick = (key: PeriodKey) => {
    setDraft(key)
    setProblem(null)
    if (key !== 'custom') onChoose({ period: key, start: '', end: '' })
    else if (!start && !end && shown) {
      // Start from the days on screen.
      setStart(shown.start)
      setEnd(shown.end)
    }
  }

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found = rangeProblem(start, end)
    setProblem(found)
    if (!found) onChoose({ period: 'custom', start, end })
  }

  return (
    <form className="ov-period" onSubmit={apply}>
      <div className="field ov-period__field">
        <label className="field__label" htmlFor={selectId}>
          Period
        </label>
        <select id={selectId} className="input" value={draft} onChange={(e) => pick(e.target.value as PeriodKey)}>
          {PERIODS.map((p) => (
            <option key={p.key} value={p.key}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      {draft === 'custom' && (
        <>
          <div className="field ov-period__field">
            <label className="field__label" htmlFor={startId}>
              First day
            </label>
            <input
              id={startId}
              className="input"
              type="date"
              value={start}
              onChange={(e) => setStart(e.target.value)}
              aria-describedby={problem ? errorId : undefined}
              aria-invalid={problem ? true : undefined}
              required
            />
          </div>
          <div className="field ov-period__field">
            <label className="field__label" htmlFor={endId}>
              Last day
            </label>
            <input
              id={endId}
              className="input"
              type="date"
              value={end}
              onChange={(e) => setEnd(e.target.value)}
              aria-describedby={problem ? errorId : undefined}
              aria-invalid={problem ? true : undefined}
              required
            />
          </div>
          <Button type="submit" variant="outline" className="ov-period__apply">
            Show
          </Button>
          {problem && (
            <p id={errorId} className="field__error ov-period__error" role="alert">
              {problem}
            </p>
          )}
        </>
      )}
      {shown && (
        <p className="ov-period__shown" aria-live="polite">
          <strong>{shown.label}</strong> compared with {shown.previous_label}
        </p>
      )}
    </form>
  )
}

// ---- Loading -------------------------------------------------------------------------------------

function OverviewSkeleton() {
  return (
    <div className="ov-skeleton" aria-busy="true">
      <Spinner label="Loading the overview" className="ov-skeleton__status" />
      <ul className="ov-cards" aria-hidden="true">
        {Array.from({ length: 9 }, (_, i) => (
          <li key={i} className="card ov-card ov-card--skeleton">
            <span className="ov-skeleton__line ov-skeleton__line--short" />
            <span className="ov-skeleton__line ov-skeleton__line--big" />
            <span className="ov-skeleton__line" />
          </li>
        ))}
      </ul>
      <div className="card ov-skeleton__chart" aria-hidden="true" />
      <div className="card ov-skeleton__chart" aria-hidden="true" />
    </div>
  )
}

// ---- The figures ---------------------------------------------------------------------------------

function OverviewBody({ data }: { data: Overview }) {
  const planNames = new Map(data.revenue_by_plan.map((p) => [p.plan_key, p.plan_name]))
  const planName = (key: string | null) => (key ? (planNames.get(key) ?? key) : '—')
  return (
    <div className="ov-body">
      {isEmpty(data) && (
        <div className="card dash-card empty-state ov-empty">
          <p className="empty-state__title">Nothing to count yet.</p>
          <p className="empty-state__text">
            This is a new install: the figures below fill in as visitors use the free tools, send the forms, sign up
            and pay. Every figure is compared with the period before, and each chart can be read as a table.
          </p>
        </div>
      )}
      <Cards data={data} />
      <section className="dash-section ov-section" aria-labelledby="ov-recurring">
        <h2 id="ov-recurring" className="dash-section__title">
          Recurring revenue
        </h2>
        <div className="ov-grid">
          <MrrChart data={data} />
          <Waterfall data={data} />
        </div>
      </section>
      <section className="dash-section ov-section" aria-labelledby="ov-funnel">
        <h2 id="ov-funnel" className="dash-section__title">
          From visitor to customer
        </h2>
        <div className="ov-grid">
          <Funnel data={data} />
          <LeadsBySource data={data} />
        </div>
        <ToolsTable data={data} />
      </section>
      <section className="dash-section ov-section" aria-labelledby="ov-revenue">
        <h2 id="ov-revenue" className="dash-section__title">
          Revenue by plan
        </h2>
        <div className="ov-grid">
          <RevenueByPlan data={data} />
          <RevenueByFamily data={data} />
        </div>
      </section>
      <section className="dash-section ov-section" aria-labelledby="ov-payments">
        <h2 id="ov-payments" className="dash-section__title">
          Payments to follow up
        </h2>
        <FailedPayments data={data} planName={planName} />
        <PastDueList data={data} planName={planName} />
      </section>
      <section className="dash-section ov-section" aria-labelledby="ov-operations">
        <h2 id="ov-operations" className="dash-section__title">
          Websites and support
        </h2>
        <div className="ov-grid">
          <Websites data={data} />
          <Support data={data} />
        </div>
      </section>
      <p className="ov-footnote">
        Amounts in {data.period.currency}, net of VAT. Figures worked out in {count(data.generated_in_ms)} ms.
      </p>
    </div>
  )
}

function Definition({ term, text }: { term: string; text: string | undefined }) {
  if (!text) return null
  return (
    <details className="ov-def">
      <summary className="ov-def__button">
        <span aria-hidden="true">?</span>
        <span className="visually-hidden">What {term} means</span>
      </summary>
      <p className="ov-def__text">{text}</p>
    </details>
  )
}

interface CardSpec {
  key: string
  label: string
  /** The definition's key in the answer's `definitions`. */
  definition?: keyof Definitions
  value: string
  compared?: { figures: Compared; format: (n: number) => string; higherIsBetter: boolean }
  extra?: string
}

function Cards({ data }: { data: Overview }) {
  const c = data.cards
  const specs: CardSpec[] = [
    { key: 'mrr', label: 'MRR', definition: 'mrr', value: money(c.mrr.current), compared: { figures: c.mrr, format: money, higherIsBetter: true } },
    { key: 'arr', label: 'ARR', definition: 'arr', value: money(c.arr.current), compared: { figures: c.arr, format: money, higherIsBetter: true } },
    {
      key: 'active_subscriptions',
      label: 'Active subscriptions',
      value: count(c.active_subscriptions.current),
      compared: { figures: c.active_subscriptions, format: count, higherIsBetter: true },
    },
    {
      key: 'one_time_revenue',
      label: 'One-time revenue',
      definition: 'one_time_revenue',
      value: money(c.one_time_revenue.current),
      compared: { figures: c.one_time_revenue, format: money, higherIsBetter: true },
    },
    {
      key: 'recurring_revenue',
      label: 'Subscription revenue',
      value: money(c.recurring_revenue.current),
      compared: { figures: c.recurring_revenue, format: money, higherIsBetter: true },
    },
    {
      key: 'new_customers',
      label: 'New customers',
      definition: 'new_customers',
      value: count(c.new_customers.current),
      compared: { figures: c.new_customers, format: count, higherIsBetter: true },
    },
    {
      key: 'failed_payments',
      label: 'Failed payments',
      definition: 'failed_payments',
      value: count(c.failed_payments.current),
      compared: { figures: c.failed_payments, format: count, higherIsBetter: false },
    },
    {
      key: 'past_due',
      label: 'Past-due subscriptions',
      value: count(c.past_due.current),
      extra: `${money(c.past_due.amount_at_risk)} MRR at risk`,
    },
    { key: 'support_open', label: 'Open support requests', value: count(c.support_open.current), extra: 'Waiting for a reply now' },
  ]
  return (
    <section className="ov-section" aria-labelledby="ov-cards">
      <h2 id="ov-cards" className="visually-hidden">
        Key figures
      </h2>
      <ul className="ov-cards">
        {specs.map((spec) => (
          <li key={spec.key} className="card ov-card" data-card={spec.key}>
            <div className="ov-card__head">
              <h3 className="ov-card__label">{spec.label}</h3>
              {spec.definition && <Definition term={spec.label} text={data.definitions[spec.definition]} />}
            </div>
            <p className="ov-card__value">{spec.value}</p>
            {spec.compared ? (
              <Comparison {...spec.compared} previousLabel={data.period.previous_label} />
            ) : (
              <p className="ov-card__extra">{spec.extra}</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}

function Comparison({
  figures,
  format,
  higherIsBetter,
  previousLabel,
}: {
  figures: Compared
  format: (n: number) => string
  higherIsBetter: boolean
  previousLabel: string
}) {
  const { direction, text } = change(figures.current, figures.previous)
  const better = direction === 'same' ? null : (figures.current > figures.previous) === higherIsBetter
  return (
    <p className={cx('ov-change', better === true && 'ov-change--good', better === false && 'ov-change--bad')}>
      <span className="ov-change__arrow" aria-hidden="true">
        {ARROWS[direction]}
      </span>{' '}
      <span className="ov-change__text">{text}</span>{' '}
      <span className="ov-change__previous">
        from {format(figures.previous)} <span className="ov-change__period">({previousLabel})</span>
      </span>
    </p>
  )
}

// ---- Charts ------------------------------------------------------------------------------------

function MrrChart({ data }: { data: Overview }) {
  const series = data.mrr_series
  const readings = series.map((p) => ({ label: shortDay(p.date, true), value: money(p.mrr) }))
  const table: TableData = {
    columns: [{ label: 'Day' }, { label: 'MRR', numeric: true }],
    rows: series.map((p) => [shortDay(p.date, true), money(p.mrr)]),
    csv: series.map((p) => [p.date, csvMoney(p.mrr)]),
    file: `mrr-${data.period.start}-${data.period.end}.csv`,
  }
  const first = series[0]
  const last = series[series.length - 1]
  const summary =
    first && last
      ? `MRR each day from ${shortDay(first.date, true)} (${money(first.mrr)}) to ${shortDay(last.date, true)} (${money(last.mrr)}).`
      : 'No MRR figures in this period.'
  return (
    <ChartFrame id="ov-mrr-chart" title="MRR over time" note="At the end of each day." summary={summary} readings={readings} table={table}>
      {({ width, active, setActive }) => (
        <LineChart
          width={width}
          active={active}
          setActive={setActive}
          format={money}
          floor={10000}
          points={series.map((p) => ({ label: p.date, tick: shortDay(p.date), value: p.mrr }))}
        />
      )}
    </ChartFrame>
  )
}

function Waterfall({ data }: { data: Overview }) {
  const m = data.mrr_movements
  const steps: { label: string; amount: number; kind: 'total' | 'up' | 'down' }[] = [
    { label: 'MRR at the start', amount: m.start, kind: 'total' },
    { label: 'New', amount: m.new, kind: 'up' },
    { label: 'Expansion', amount: m.expansion, kind: 'up' },
    { label: 'Reactivation', amount: m.reactivation, kind: 'up' },
    { label: 'Contraction', amount: m.contraction, kind: 'down' },
    { label: 'Churn', amount: m.churn, kind: 'down' },
    { label: 'MRR at the end', amount: m.end, kind: 'total' },
  ]
  let level = 0
  const bars: Bar[] = steps.map((step) => {
    if (step.kind === 'total') {
      level = step.amount
      return { label: step.label, from: 0, to: step.amount, tone: 'total', text: money(step.amount) }
    }
    const from = level
    level = step.kind === 'up' ? level + step.amount : level - step.amount
    return { label: step.label, from, to: level, tone: step.kind, text: `${step.kind === 'up' ? '+' : '−'}${money(step.amount)}` }
  })
  const signed = (step: (typeof steps)[number]) => (step.kind === 'down' ? -step.amount : step.amount)
  const table: TableData = {
    columns: [{ label: 'Movement' }, { label: 'Amount', numeric: true }],
    rows: bars.map((bar) => [bar.label, bar.text]),
    csv: steps.map((step) => [step.label, csvMoney(signed(step))]),
    file: `mrr-movements-${data.period.start}-${data.period.end}.csv`,
  }
  return (
    <ChartFrame
      id="ov-waterfall"
      title="MRR movements"
      note={
        <>
          From {money(m.start)} to {money(m.end)}: new, expansion and reactivation add, contraction and churn take
          away. <DefinitionInline text={data.definitions.churn} />
        </>
      }
      summary={`MRR went from ${money(m.start)} to ${money(m.end)}: new ${money(m.new)}, expansion ${money(m.expansion)}, reactivation ${money(m.reactivation)}, contraction ${money(m.contraction)}, churn ${money(m.churn)}.`}
      readings={bars.map((bar) => ({ label: bar.label, value: bar.text }))}
      table={table}
    >
      {({ width, active, setActive }) => <BarChart bars={bars} width={width} active={active} setActive={setActive} connect />}
    </ChartFrame>
  )
}

function DefinitionInline({ text }: { text: string | undefined }) {
  return text ? <span className="ov-panel__definition">{text}</span> : null
}

function PreviousLegend({ data }: { data: Overview }) {
  return (
    <p className="ov-legend">
      <span className="ov-legend__item">
        <span className="ov-legend__swatch ov-legend__swatch--current" aria-hidden="true" /> {data.period.label}
      </span>
      <span className="ov-legend__item">
        <span className="ov-legend__swatch ov-legend__swatch--previous" aria-hidden="true" /> Thin bar: {data.period.previous_label}
      </span>
    </p>
  )
}

function Funnel({ data }: { data: Overview }) {
  const steps = data.funnel.steps
  const started = steps.find((s) => s.key === 'checkouts')
  const rows = [
    ...steps.map((step, i) => ({
      label: step.label,
      current: step.current,
      previous: step.previous,
      share: i === 0 ? '' : `${percentOf(step.current, steps[i - 1].current)} of ${steps[i - 1].label.toLowerCase()}`,
      tone: 'plain' as const,
    })),
    {
      label: 'Abandoned checkouts',
      current: data.funnel.abandoned.current,
      previous: data.funnel.abandoned.previous,
      share: started ? `${percentOf(data.funnel.abandoned.current, started.current)} of checkouts started` : '',
      tone: 'down' as const,
    },
  ]
  const bars: Bar[] = rows.map((row) => ({
    label: row.label,
    from: 0,
    to: row.current,
    previous: row.previous,
    tone: row.tone,
    text: row.share ? `${count(row.current)} · ${row.share}` : count(row.current),
  }))
  const table: TableData = {
    columns: [{ label: 'Step' }, { label: data.period.label, numeric: true }, { label: data.period.previous_label, numeric: true }, { label: 'Share of the step before', numeric: true }],
    rows: rows.map((row) => [row.label, count(row.current), count(row.previous), row.share || '—']),
    csv: rows.map((row) => [row.label, row.current, row.previous, row.share]),
    file: `funnel-${data.period.start}-${data.period.end}.csv`,
  }
  return (
    <ChartFrame
      id="ov-funnel-chart"
      title="Funnel"
      note={data.definitions.funnel}
      summary={`${rows.map((row) => `${row.label} ${count(row.current)}`).join(', ')}.`}
      readings={rows.map((row) => ({
        label: row.label,
        value: `${count(row.current)}${row.share ? `, ${row.share}` : ''} (${data.period.previous_label}: ${count(row.previous)})`,
      }))}
      table={table}
      legend={<PreviousLegend data={data} />}
    >
      {({ width, active, setActive }) => <BarChart bars={bars} width={width} active={active} setActive={setActive} />}
    </ChartFrame>
  )
}

function LeadsBySource({ data }: { data: Overview }) {
  const sources = data.funnel.leads_by_source
  const bars: Bar[] = sources.map((s) => ({ label: s.label, from: 0, to: s.current, previous: s.previous, tone: 'plain', text: count(s.current) }))
  const table: TableData = {
    columns: [{ label: 'Source' }, { label: data.period.label, numeric: true }, { label: data.period.previous_label, numeric: true }],
    rows: sources.map((s) => [s.label, count(s.current), count(s.previous)]),
    csv: sources.map((s) => [s.label, s.current, s.previous]),
    file: `leads-by-source-${data.period.start}-${data.period.end}.csv`,
  }
  if (sources.length === 0) {
    return (
      <section className="card dash-card ov-panel" aria-labelledby="ov-sources">
        <h3 id="ov-sources" className="ov-panel__title">
          Leads by source
        </h3>
        <p className="ov-panel__empty">No leads in this period.</p>
      </section>
    )
  }
  return (
    <ChartFrame
      id="ov-sources"
      title="Leads by source"
      note="Each landing page, the speed test, the analysis and the newsletter."
      summary={`${sources.map((s) => `${s.label} ${count(s.current)}`).join(', ')}.`}
      readings={sources.map((s) => ({ label: s.label, value: `${count(s.current)} (${data.period.previous_label}: ${count(s.previous)})` }))}
      table={table}
      legend={<PreviousLegend data={data} />}
    >
      {({ width, active, setActive }) => <BarChart bars={bars} width={width} active={active} setActive={setActive} />}
    </ChartFrame>
  )
}

function ToolsTable({ data }: { data: Overview }) {
  const tools = [
    { label: 'Speed tests', figures: data.tools.speed_tests },
    { label: 'Website analyses', figures: data.tools.analyses },
  ]
  const table: TableData = {
    columns: [
      { label: 'Free tool' },
      { label: 'Run', numeric: true },
      { label: 'Previous period', numeric: true },
      { label: 'Became leads', numeric: true },
      { label: 'Became purchases', numeric: true },
    ],
    rows: tools.map(({ label, figures: f }) => [
      label,
      count(f.current),
      count(f.previous),
      `${count(f.became_leads)} (${percentOf(f.became_leads, f.current)})`,
      `${count(f.became_purchases)} (${percentOf(f.became_purchases, f.current)})`,
    ]),
    csv: tools.map(({ label, figures: f }) => [label, f.current, f.previous, f.became_leads, f.became_purchases]),
    file: `free-tools-${data.period.start}-${data.period.end}.csv`,
  }
  return <TableCard id="ov-tools" title="Free tools" note="How many runs of the free tools became leads and purchases." data={table} />
}

function RevenueByPlan({ data }: { data: Overview }) {
  const plans = data.revenue_by_plan
  const table: TableData = {
    columns: [{ label: 'Plan' }, { label: 'Family' }, { label: 'One-time', numeric: true }, { label: 'Subscriptions', numeric: true }, { label: 'Total', numeric: true }],
    rows: plans.map((p) => [p.plan_name, p.family_title, money(p.one_time), money(p.recurring), money(p.total)]),
    csv: plans.map((p) => [p.plan_name, p.family_title, csvMoney(p.one_time), csvMoney(p.recurring), csvMoney(p.total)]),
    file: `revenue-by-plan-${data.period.start}-${data.period.end}.csv`,
  }
  return <TableCard id="ov-plans" title="By plan" note="Net of VAT and refunds." data={table} empty="No revenue in this period." />
}

function RevenueByFamily({ data }: { data: Overview }) {
  const families = data.revenue_by_family
  const sum = families.reduce((total, f) => total + f.total, 0)
  const table: TableData = {
    columns: [{ label: 'Family' }, { label: 'Total', numeric: true }, { label: 'Share', numeric: true }],
    rows: families.map((f) => [f.family_title, money(f.total), percentOf(f.total, sum)]),
    csv: families.map((f) => [f.family_title, csvMoney(f.total)]),
    file: `revenue-by-family-${data.period.start}-${data.period.end}.csv`,
  }
  return <TableCard id="ov-families" title="By family" data={table} empty="No revenue in this period." />
}

function CustomerCell({ email, url }: { email: string | null; url: string | null }) {
  return (
    <span className="ov-customer">
      {email ? <a href={`mailto:${email}`}>{email}</a> : <span>Unknown customer</span>}
      {url && (
        <a href={url} target="_blank" rel="noopener noreferrer" className="ov-customer__stripe">
          Open in Stripe<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      )}
    </span>
  )
}

function FailedPayments({ data, planName }: { data: Overview; planName: (key: string | null) => string }) {
  const rows = data.failed_payments
  const table: TableData = {
    columns: [{ label: 'Customer' }, { label: 'Plan' }, { label: 'Amount', numeric: true }, { label: 'Failed' }, { label: 'Recovered' }],
    rows: rows.map((r) => [
      <CustomerCell key="customer" email={r.email} url={r.customer_url} />,
      planName(r.plan_key),
      money(r.amount, r.currency),
      dayTime(r.failed_at),
      r.recovered_at ? dayTime(r.recovered_at) : <strong key="open">Not yet</strong>,
    ]),
    csv: rows.map((r) => [r.email, r.plan_key, csvMoney(r.amount), r.currency, r.failed_at, r.recovered_at, r.customer_url]),
    file: `failed-payments-${data.period.start}-${data.period.end}.csv`,
    csvColumns: ['Customer', 'Plan', 'Amount', 'Currency', 'Failed at', 'Recovered at', 'Stripe customer'],
  }
  return <TableCard id="ov-failed" title="Failed payments" note={data.definitions.failed_payments} data={table} empty="No failed payments in this period." />
}

function PastDueList({ data, planName }: { data: Overview; planName: (key: string | null) => string }) {
  const rows = data.past_due
  const table: TableData = {
    columns: [{ label: 'Customer' }, { label: 'Plan' }, { label: 'MRR', numeric: true }, { label: 'Past due since' }],
    rows: rows.map((r) => [<CustomerCell key="customer" email={r.email} url={r.customer_url} />, planName(r.plan_key), money(r.mrr), dayTime(r.since)]),
    csv: rows.map((r) => [r.email, r.plan_key, csvMoney(r.mrr), r.since, r.customer_url]),
    file: 'past-due.csv',
    csvColumns: ['Customer', 'Plan', 'MRR', 'Past due since', 'Stripe customer'],
  }
  return <TableCard id="ov-past-due" title="Past-due subscriptions" note="Subscriptions whose latest payment failed, as they are now." data={table} empty="No subscription is past due." />
}

function Websites({ data }: { data: Overview }) {
  const w = data.websites
  const table: TableData = {
    columns: [{ label: 'Status' }, { label: 'Websites', numeric: true }, { label: 'Average score', numeric: true }],
    rows: w.by_status.map((s) => [s.label, count(s.count), s.average_score === null ? '—' : `${Math.round(s.average_score)}/100`]),
    csv: w.by_status.map((s) => [s.label, s.count, s.average_score]),
    file: 'websites-by-status.csv',
  }
  const note: ReactNode =
    w.building.count === 0 ? (
      'No website is waiting in building.'
    ) : (
      <>
        {count(w.building.count)} in building: median wait {hours(w.building.median_hours)}, longest {hours(w.building.longest_hours)}.
      </>
    )
  return <TableCard id="ov-websites" title="Websites by status" note={note} data={table} empty="No websites yet." />
}

function Support({ data }: { data: Overview }) {
  const s = data.support
  return (
    <section className="card dash-card ov-panel" aria-labelledby="ov-support">
      <div className="ov-panel__head">
        <h3 id="ov-support" className="ov-panel__title">
          Support
        </h3>
        <Definition term="median first reply" text={data.definitions.median_first_reply} />
      </div>
      <dl className="ov-facts">
        <div>
          <dt>Open now</dt>
          <dd>{count(s.open)}</dd>
        </div>
        <div>
          <dt>Answered in the period</dt>
          <dd>{count(s.answered)}</dd>
        </div>
        <div>
          <dt>Median first reply</dt>
          <dd>
            {hours(s.median_first_reply_hours)}
            <span className="ov-facts__previous">
              {data.period.previous_label}: {hours(s.previous_median_first_reply_hours)}
            </span>
          </dd>
        </div>
      </dl>
    </section>
  )
}
