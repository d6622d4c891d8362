import { lazy, Suspense, useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { ANALYSIS_FIELDS, tooSlow, VARIANT_OF, type AnalysisSource } from './analysis'
import { concerns, formValues, useHydrated } from '../../lib/forms'
import { scrollToId } from '../../lib/scroll'
import { useAnalysis, type AnalysisState } from './use-analysis'
import { CheckIcon } from '../../components/icons/CheckIcon'
import { Badge } from '../../components/ui/Badge'
import { Button, ButtonLink } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { Field } from '../../components/ui/Field'
import { NEWSLETTER_NAME, NewsletterOptIn, ticked } from '../../components/ui/NewsletterOptIn'
import { Container } from '../../components/ui/Section'
import { cx } from '../../lib/cx'

// The results are never in the first render: their code loads when the first answer is there.
const AnalysisResults = lazy(() => import('./AnalysisResults'))

export interface MobileBarText {
  /** Beside the submit button before the results ('Free analysis. No credit card needed.'). */
  note: string
  /** Beside 'Fix My Website Now' after results below 90 ('2 rebuild spots left today – ...'):
   * the operator's urgency claim, null when it is off. */
  spots: string | null
}

export interface AnalysisToolProps {
  source: AnalysisSource
  badge: string
  title: string
  lead: string
  urlLabel: string
  emailLabel: string
  button: string
  note: string
  urlPlaceholder?: string
  /** The fixed bar on phones (lead, technical and agency pages). */
  mobileBar?: MobileBarText
  /** Shown beside the form on wide screens and after it on phones (the lead page's pre-scan),
   * until the finished report is shown: a teaser has no place next to the real thing. */
  aside?: ReactNode
}

/** What the live status region says (the bar itself is not announced at every step). */
function statusText({ phase, domain, analysis }: AnalysisState): string {
  if (phase === 'loading') return `Analyzing ${domain}...`
  if (phase === 'done' && analysis) return `Analysis of ${analysis.domain} complete.`
  return ''
}

/**
 * An analysis page's hero: its pitch, the form (website and e-mail), the red box above it, the
 * loading block (progress, 'Analyzing {domain}...', the e-mail note), then the results and, on
 * phones, the fixed bar with the submit button or, after a slow result, 'Fix My Website Now'.
 */
export function AnalysisTool(props: AnalysisToolProps) {
  const { source, badge, title, lead, urlLabel, emailLabel, button, note, urlPlaceholder = 'yourwebsite.com', mobileBar, aside } = props
  const variant = VARIANT_OF[source]
  const id = useId()
  const hydrated = useHydrated()
  const { state, submit } = useAnalysis(source)
  const formRef = useRef<HTMLFormElement>(null)
  // Both fields hold something (the phones' bar enables its submit button then). The inputs are
  // uncontrolled: this follows their input events, and looks once in the hydrating commit for
  // what was typed or autofilled on the prerendered page.
  const [filled, setFilled] = useState(false)
  const checkFilled = () => {
    const form = formRef.current
    if (!form) return
    const current = formValues(form, ['url', 'email'])
    setFilled(current.url.trim() !== '' && current.email.trim() !== '')
  }
  useLayoutEffect(checkFilled, [])
  const urlRef = useRef<HTMLInputElement>(null)
  const emailRef = useRef<HTMLInputElement>(null)
  const busy = state.phase === 'loading'
  const formId = `${id}-form`
  const cardId = 'analysis-form'
  const errorId = `${id}-error`
  const loadingId = 'analysis-loading'

  // A check of the page's own puts the cursor in the field it is about; other failures bring
  // the form back into view on the lead, technical and agency pages (spec §2).
  const message = state.problem?.message ?? null
  const field = ANALYSIS_FIELDS.find((name) => concerns(state.problem, name)) ?? null
  useEffect(() => {
    if (field === 'url') urlRef.current?.focus()
    else if (field === 'email') emailRef.current?.focus()
    else if (message && variant !== 'general') scrollToId(cardId)
  }, [message, field, state.attempt, variant])

  // Loading: the loading block comes into view.
  useEffect(() => {
    if (busy) scrollToId(loadingId)
  }, [busy, state.attempt])

  const invalid = (name: string) => (concerns(state.problem, name) ? { invalid: true, describedBy: errorId } : {})

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const values = formValues(event.currentTarget, [...ANALYSIS_FIELDS, NEWSLETTER_NAME])
    void submit({ url: values.url, email: values.email, newsletter: ticked(values.newsletter) })
  }

  const analysis = state.phase === 'done' ? state.analysis : null
  const speed = analysis?.speed_test?.result?.score ?? null
  const slow = speed !== null && tooSlow(speed)

  return (
    <>
      <section className={cx('hero analysis-hero', `analysis-hero--${variant}`)}>
        <Container className="analysis-hero__grid">
          <div className="analysis-hero__copy">
            <Badge tone="purple" className="hero__badge">
              {badge}
            </Badge>
            <h1 className="hero__title analysis-hero__title">{title}</h1>
            <p className="hero__lead">{lead}</p>
          </div>
          <Card id={cardId} className="analysis-card">
            <h2 className="analysis-card__title">Get your free analysis</h2>
            <form id={formId} className="analysis-form" ref={formRef} onSubmit={onSubmit} onInput={checkFilled} noValidate aria-describedby={message ? errorId : undefined}>
              {message && (
                <ErrorBox key={state.attempt} id={errorId}>
                  {message}
                </ErrorBox>
              )}
              <Field
                ref={urlRef}
                name="url"
                label={urlLabel}
                inputMode="url"
                autoComplete="url"
                autoCapitalize="none"
                spellCheck={false}
                placeholder={urlPlaceholder}
                hint="Your domain, for example yourwebsite.com."
                required
                defaultValue=""
                {...invalid('url')}
              />
              <Field
                ref={emailRef}
                name="email"
                type="email"
                label={emailLabel}
                autoComplete="email"
                placeholder="you@yourbusiness.com"
                hint="We send the detailed report to this address."
                required
                defaultValue=""
                {...invalid('email')}
              />
              <NewsletterOptIn />
              <Button
                type="submit"
                size="lg"
                block
                busy={busy}
                disabled={!hydrated}
                className={cx(mobileBar && 'analysis-form__submit--desktop')}
              >
                {button}
              </Button>
              <p className="analysis-form__note">{note}</p>
            </form>
            {/* One live region, always there: the e-mail note and the state are announced. */}
            <div role="status" className="analysis-card__live">
              {state.notice && (
                <p className="analysis-card__notice">
                  <CheckIcon size={20} />
                  <span>{state.notice}</span>
                </p>
              )}
              {state.newsletter &&
                (state.newsletter.subscribed ? (
                  <p className="analysis-card__notice">
                    <CheckIcon size={20} />
                    <span>{state.newsletter.message}</span>
                  </p>
                ) : (
                  <p className="analysis-card__newsletter">{state.newsletter.message}</p>
                ))}
              <span className="visually-hidden">{statusText(state)}</span>
            </div>
            {(busy || state.phase === 'done') && (
              <div id={loadingId} className={cx('analysis-loading', !busy && 'analysis-loading--done')}>
                <div className="analysis-loading__head">
                  <span>{busy ? `Analyzing ${state.domain}...` : `Analyzed ${state.domain}`}</span>
                  <span className="analysis-loading__percent" aria-hidden="true">
                    {Math.floor(state.progress)}%
                  </span>
                </div>
                <progress
                  className="scan__bar"
                  max={100}
                  value={state.progress}
                  aria-label={`Analysis of ${state.domain}`}
                  aria-valuetext={`${Math.floor(state.progress)}%`}
                />
                {busy && (
                  <p className="analysis-loading__hint">
                    We read your page, check what is on it and measure its speed on a phone. This takes up to a minute.
                  </p>
                )}
              </div>
            )}
          </Card>
          {aside && !analysis && <div className="analysis-hero__aside">{aside}</div>}
        </Container>
      </section>
      {analysis && (
        <Suspense fallback={null}>
          <AnalysisResults analysis={analysis} variant={variant} />
        </Suspense>
      )}
      {mobileBar &&
        (slow ? (
          <section className="sticky-cta analysis-bar" aria-label="Quick action">
            {mobileBar.spots !== null && <p className="sticky-cta__note">{mobileBar.spots}</p>}
            <ButtonLink to="/start" className="sticky-cta__button" size="md">
              Fix My Website Now
            </ButtonLink>
          </section>
        ) : (
          <section className="sticky-cta analysis-bar" aria-label="Quick action">
            <p className="sticky-cta__note">{mobileBar.note}</p>
            <Button type="submit" form={formId} className="sticky-cta__button" size="md" busy={busy} disabled={!hydrated || !filled}>
              {button}
            </Button>
          </section>
        ))}
    </>
  )
}
