import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { api } from '../../lib/api-client'
import { concerns, formValues, useHydrated } from '../../lib/forms'
import { ratingFor, SPEED_FIELDS, testedThisMonthText, type SpeedSource } from './speed-test'
import { useSpeedTest, type SpeedTestState } from './use-speed-test'
import { CheckList } from '../content'
import { CheckIcon } from '../../components/icons/CheckIcon'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { Field } from '../../components/ui/Field'
import { NEWSLETTER_NAME, NewsletterOptIn, ticked } from '../../components/ui/NewsletterOptIn'
import { Container } from '../../components/ui/Section'
import { Link } from '../../lib/router'
import { ScanProgress } from './ScanProgress'

// The result is never in the first render: its code loads while the test runs.
const loadResult = () => import('./SpeedResult').then((m) => ({ default: m.SpeedResult }))
const SpeedResult = lazy(loadResult)

export interface SpeedTestToolProps {
  source: SpeedSource
  badge: string
  title: string
  lead: string
  points: readonly string[]
  urlPlaceholder: string
}

/** What the live status region says (the bar itself is not announced at every step). */
function statusText({ phase, domain, test }: SpeedTestState): string {
  if (phase === 'starting') return 'Sending…'
  if (phase === 'scanning') return `Testing ${domain}. This takes about 25 seconds.`
  if (phase === 'done' && test?.result) {
    return `Test complete. ${test.domain} scored ${test.result.score} out of 100: ${ratingFor(test.result.score).label}.`
  }
  return ''
}

/** 'N websites tested this month', from the server's count (nothing below the threshold). */
function useTestedThisMonth(): string | null {
  const [websites, setWebsites] = useState<number | null>(null)
  useEffect(() => {
    let live = true
    api.get('/api/speed-tests/this-month').then(
      (figure) => live && setWebsites(figure.websites),
      () => undefined, // no figure, no line
    )
    return () => {
      live = false
    }
  }, [])
  return testedThisMonthText(websites)
}

/**
 * A speed-test page's hero: its pitch, the form (website URL, e-mail, the unticked newsletter
 * box), what was confirmed, the scanning display and the red box; the result panel follows.
 */
export function SpeedTestTool({ source, badge, title, lead, points, urlPlaceholder }: SpeedTestToolProps) {
  const id = useId()
  const hydrated = useHydrated()
  const { state, submit } = useSpeedTest(source)
  const urlRef = useRef<HTMLInputElement>(null)
  const emailRef = useRef<HTMLInputElement>(null)
  const busy = state.phase === 'starting' || state.phase === 'scanning'
  const tested = useTestedThisMonth()
  const errorId = `${id}-error`

  // A check of the page's own puts the cursor in the field it is about.
  const message = state.problem?.message ?? null
  const field = SPEED_FIELDS.find((name) => concerns(state.problem, name)) ?? null
  useEffect(() => {
    if (field === 'url') urlRef.current?.focus()
    else if (field === 'email') emailRef.current?.focus()
  }, [field, state.attempt])

  const invalid = (name: string) => (concerns(state.problem, name) ? { invalid: true, describedBy: errorId } : {})

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const values = formValues(event.currentTarget, [...SPEED_FIELDS, NEWSLETTER_NAME])
    if (state.phase === 'idle') void loadResult() // while the test runs
    void submit({ url: values.url, email: values.email, newsletter: ticked(values.newsletter) })
  }

  return (
    <>
      <section className="hero speedtest-hero">
        <Container className="speedtest-hero__grid">
          <div className="speedtest-hero__copy">
            <Badge tone="purple" className="hero__badge">
              {badge}
            </Badge>
            <h1 className="hero__title speedtest-hero__title">{title}</h1>
            <p className="hero__lead">{lead}</p>
          </div>
          <Card className="speedtest-card">
            <h2 className="speedtest-card__title">Test your website for free</h2>
            <form className="speedtest-form" onSubmit={onSubmit} noValidate aria-describedby={message ? errorId : undefined}>
              {message && (
                <ErrorBox key={state.attempt} id={errorId}>
                  {message}
                </ErrorBox>
              )}
              <Field
                ref={urlRef}
                name="url"
                label="Website URL"
                inputMode="url"
                autoComplete="url"
                autoCapitalize="none"
                spellCheck={false}
                placeholder={urlPlaceholder}
                required
                defaultValue=""
                {...invalid('url')}
              />
              <Field
                ref={emailRef}
                name="email"
                type="email"
                label="Your Email"
                autoComplete="email"
                placeholder="you@yourbusiness.com"
                hint="We e-mail you the full report in about 60 seconds."
                required
                defaultValue=""
                {...invalid('email')}
              />
              <NewsletterOptIn />
              <Button type="submit" size="lg" block busy={busy} disabled={!hydrated}>
                {busy ? 'Testing…' : 'Test My Website Speed'}
              </Button>
              <div className="speedtest-form__notes">
                <p className="speedtest-form__note">Free, no credit card.</p>
                {/* Its line is kept while the count loads (or stays hidden): nothing moves. */}
                <p className="speedtest-form__note speedtest-form__tested">{tested}</p>
              </div>
            </form>
            {/* One live region, always there: the confirmation and what happens next are announced. */}
            <div role="status" className="speedtest-card__live">
              {state.confirmation && (
                <p className="speedtest-card__confirmation">
                  <CheckIcon size={20} />
                  <span>{state.confirmation}</span>
                </p>
              )}
              {state.newsletter &&
                (state.newsletter.subscribed ? (
                  <p className="speedtest-card__confirmation">
                    <CheckIcon size={20} />
                    <span>{state.newsletter.message}</span>
                  </p>
                ) : (
                  <p className="speedtest-card__newsletter">{state.newsletter.message}</p>
                ))}
              <span className="visually-hidden">{statusText(state)}</span>
            </div>
            {(state.phase === 'scanning' || state.phase === 'done') && (
              <ScanProgress domain={state.domain} value={state.progress} done={state.phase === 'done'} />
            )}
          </Card>
          <div className="speedtest-hero__more">
            <CheckList items={points} className="check-list speedtest-hero__points" />
            <p className="speedtest-hero__skip">
              Already know your site is slow? <Link to="/start">Get a fast website built for you</Link>.
            </p>
          </div>
        </Container>
      </section>
      {state.phase === 'done' && state.test?.result && (
        <Suspense fallback={null}>
          <SpeedResult test={{ ...state.test, result: state.test.result }} />
        </Suspense>
      )}
    </>
  )
}
