import { useEffect, useState, type ReactNode } from 'react'
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom'
import { Link } from '../../../lib/router'
import { CheckIcon } from '../../../components/icons/CheckIcon'
import { ClockIcon } from '../../../components/icons/ClockIcon'
import { ButtonLink } from '../../../components/ui/Button'
import { Container } from '../../../components/ui/Section'
import { Spinner } from '../../../components/ui/Spinner'
import { api } from '../../../lib/api-client'
import { useAuth } from '../../../lib/auth'
import { cx } from '../../../lib/cx'
import { usePolledJob } from '../../../lib/use-polled-job'
import { findPlan, useCatalogue } from '../../catalogue'
import { formatIsoDate } from '../billing'
import { WITHDRAWAL_DAYS } from '../order-terms'
// Purchase styles load with the purchase pages only.
import '../purchase.css'

export const POLL_INTERVAL_MS = 2000
/** Give up waiting after this long (then explain that the payment shows up later). */
export const POLL_LIMIT_MS = 60_000

export const MSG_LATE =
  "We haven't received the payment confirmation yet. If you completed the payment, it will appear in your dashboard within a few minutes."

type Phase = 'auth' | 'pending' | 'paid' | 'late' | 'missing'

interface Paid {
  planKey: string
  orderNumber: string | null
  buyerType: 'consumer' | 'business'
  workStartsOn: string | null
}

export default function SuccessPage() {
  const { refresh } = useAuth()
  const navigate = useNavigate()
  const location = useLocation()
  const [params] = useSearchParams()
  const sessionId = params.get('session_id')
  const [phase, setPhase] = useState<Phase>('auth')
  const [planName, setPlanName] = useState<string | null>(null)
  const [paid, setPaid] = useState<Paid | null>(null)
  const catalogue = useCatalogue()
  const here = `${location.pathname}${location.search}`
  const { begin, cancel } = usePolledJob()

  useEffect(() => {
    const run = begin()
    void (async () => {
      const user = await refresh()
      if (!run.live()) return
      if (!user) {
        navigate('/login', { replace: true, state: { from: here } })
        return
      }
      if (!sessionId) {
        setPhase('missing')
        return
      }
      setPhase('pending')
      const params = { session_id: sessionId }
      run
        .poll({
          get: () => api.get('/api/billing/checkout/{session_id}', { params }),
          ended: (data) => data.status === 'paid' || data.status === 'expired',
          every: POLL_INTERVAL_MS,
          immediate: true,
          onAnswer: (data) => {
            if (data.plan_name) setPlanName(data.plan_name)
            if (data.status === 'paid') {
              setPaid({
                planKey: data.plan_key,
                orderNumber: data.order_number ?? null,
                buyerType: data.buyer_type ?? 'consumer',
                workStartsOn: data.work_starts_on ?? null,
              })
            }
          },
          // A network blip or an unknown session: keep trying until the time limit.
          retryable: () => true,
          retries: Infinity,
          limit: Math.ceil(POLL_LIMIT_MS / POLL_INTERVAL_MS),
        })
        .then(
          (data) => {
            if (data) setPhase(data.status === 'paid' ? 'paid' : 'late')
          },
          () => setPhase('late'),
        )
    })()
    return cancel
    // Runs once per page visit (the session id is part of the URL).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId])

  if (phase === 'auth') {
    return (
      <div className="page-loading">
        <Spinner label="Loading your order" size="lg" />
      </div>
    )
  }

  if (phase === 'pending') {
    return (
      <SuccessCard tone="wait" icon={<Spinner label={null} size="lg" />} heading="Confirming your payment…" live>
        <p>This usually takes a few seconds. Please keep this page open.</p>
      </SuccessCard>
    )
  }

  if (phase === 'paid') {
    const plan = catalogue.status === 'ready' && paid ? findPlan(catalogue.catalogue, paid.planKey) : undefined
    return (
      <SuccessCard tone="done" icon={<CheckIcon size={32} />} heading="Payment Successful.">
        {paid?.orderNumber && (
          <p className="success-card__plan">
            Your order number: <strong>{paid.orderNumber}</strong>
          </p>
        )}
        {planName && (
          <p className="success-card__plan">
            Your package: <strong>{planName}</strong>
          </p>
        )}
        {paid?.workStartsOn ? (
          <p>
            We start work on {formatIsoDate(paid.workStartsOn)}, when your {WITHDRAWAL_DAYS}-day withdrawal period has
            ended, as you did not ask us to start earlier.
          </p>
        ) : (
          <p>Our team starts on your order immediately.</p>
        )}
        {plan && (plan.delivery || plan.guarantee) && (
          <p className="success-card__promise">
            {[plan.delivery && `Delivery in ${plan.delivery}`, plan.guarantee].filter(Boolean).join(' · ')}
          </p>
        )}
        <p>The order confirmation is on its way to your email address.</p>
        <div className="success-card__actions">
          <ButtonLink to="/dashboard" size="lg">
            Go to Dashboard
          </ButtonLink>
          <Link to="/support">Contact support</Link>
        </div>
      </SuccessCard>
    )
  }

  if (phase === 'missing') {
    return (
      <SuccessCard tone="wait" icon={<ClockIcon size={32} />} heading="No payment to confirm">
        <p>
          This page confirms a payment after checkout, but the link has no payment reference. Your orders and
          subscription are always listed in your dashboard.
        </p>
        <div className="success-card__actions">
          <ButtonLink to="/dashboard" size="lg">
            Go to Dashboard
          </ButtonLink>
          <Link to="/support">Contact support</Link>
        </div>
      </SuccessCard>
    )
  }

  return (
    <SuccessCard tone="wait" icon={<ClockIcon size={32} />} heading="Payment not confirmed yet">
      <p>{MSG_LATE}</p>
      <div className="success-card__actions">
        <ButtonLink to="/dashboard" size="lg">
          Go to Dashboard
        </ButtonLink>
        <Link to="/support">Contact support</Link>
      </div>
    </SuccessCard>
  )
}

function SuccessCard({
  tone,
  icon,
  heading,
  live = false,
  children,
}: {
  tone: 'done' | 'wait'
  icon: ReactNode
  heading: string
  live?: boolean
  children: ReactNode
}) {
  return (
    <div className="success-page">
      <Container size="sm">
        <div className={cx('success-card', 'card', `success-card--${tone}`)} role={live ? 'status' : undefined}>
          <span className="success-card__icon">{icon}</span>
          <h1 className="success-card__title">{heading}</h1>
          <div className="success-card__body">{children}</div>
        </div>
      </Container>
    </div>
  )
}
