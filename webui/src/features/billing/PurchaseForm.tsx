import { useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react'
import { useLocation } from 'react-router-dom'
import { Link } from '../../lib/router'
import { CheckIcon } from '../../components/icons/CheckIcon'
import { LockIcon } from '../../components/icons/LockIcon'
import { Badge, type BadgeTone } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { Field } from '../../components/ui/Field'
import { api, type RequestBody } from '../../lib/api-client'
import { useAuth } from '../../lib/auth'
import { badgeLabel, billingSuffix, formatPrice, priceWithSuffix, type Family, type Plan, type PlanBadge } from '../catalogue'
import { cx } from '../../lib/cx'
import { concerns, formValues, problem as formProblem, problemFromError, type FormProblem } from '../../lib/forms'
// Purchase styles load with the purchase pages only.
import './purchase.css'

export const CHECKOUT_PATH = '/api/billing/checkout'
export const MSG_SELECT_PACKAGE = 'Please select a package'
export const MSG_FILL_REQUIRED = 'Please fill in all required fields'

type CheckoutBody = NonNullable<RequestBody<typeof CHECKOUT_PATH, 'post'>>

export type PurchasePage = NonNullable<CheckoutBody['page']>

export interface PurchaseFormProps {
  page: PurchasePage
  /** The family whose texts (call to action, domain field, bullets) apply. */
  family: Family
  /** The packages offered, in display order. */
  plans: Plan[]
  /** Preselected plan key. */
  initialPlan: string | null
  /** Show only the preselected package until the buyer asks for all of them. */
  narrow?: boolean
}

const BADGE_TONES: Record<PlanBadge, BadgeTone> = { popular: 'purple', premium: 'blue', launch: 'green' }

/** Where "Log in" should come back to: this page, with the chosen plan. */
function returnUrl(pathname: string, search: string, plan: string): string {
  const params = new URLSearchParams(search)
  params.delete('canceled')
  params.set('plan', plan)
  return `${pathname}?${params.toString()}`
}

export function PurchaseForm({ page, family, plans, initialPlan, narrow = false }: PurchaseFormProps) {
  const { user } = useAuth()
  const location = useLocation()
  const baseId = useId()
  const errorId = `${baseId}-error`
  const packagesLabelId = `${baseId}-packages`
  const errorRef = useRef<HTMLDivElement>(null)

  const [planKey, setPlanKey] = useState<string | null>(
    initialPlan && plans.some((plan) => plan.key === initialPlan) ? initialPlan : null,
  )
  const formRef = useRef<HTMLFormElement>(null)
  const [showPassword, setShowPassword] = useState(false)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<FormProblem | null>(null)

  const selected = plans.find((plan) => plan.key === planKey) ?? null
  const [showAll, setShowAll] = useState(!narrow || plans.length < 2)
  const shown = showAll ? plans : plans.filter((plan) => plan.key === planKey)

  // The radios are uncontrolled like the other inputs; planKey only mirrors the checked one for
  // the highlight and the summary. A package picked on the prerendered page before React
  // hydrated it is checked in the form but not in planKey: the hydrating commit looks.
  useLayoutEffect(() => {
    const checked = formRef.current?.querySelector<HTMLInputElement>('input[name="plan"]:checked')
    if (checked) setPlanKey(checked.value)
  }, [])

  const show = (next: FormProblem) => {
    setProblem(next)
    // The submit button may sit in the bottom bar, far from the message: bring it into view.
    requestAnimationFrame(() => errorRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' }))
  }

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const current = formValues(event.currentTarget, ['plan', 'full_name', 'email', 'password', 'domain'])
    const chosen = plans.find((plan) => plan.key === current.plan) ?? null
    if (!chosen) {
      show(formProblem(MSG_SELECT_PACKAGE, ['plan']))
      return
    }
    if (!user) {
      const missing = (['full_name', 'email', 'password'] as const).filter((name) =>
        name === 'password' ? current.password === '' : current[name].trim() === '',
      )
      if (missing.length > 0) {
        show(formProblem(MSG_FILL_REQUIRED, missing))
        return
      }
    }
    setProblem(null)
    setBusy(true)
    const body: CheckoutBody = { plan: chosen.key, page }
    const domain = current.domain.trim()
    if (family.show_domain && domain !== '') body.domain = domain
    if (!user) {
      body.full_name = current.full_name.trim()
      body.email = current.email.trim()
      body.password = current.password
    }
    try {
      const data = await api.post(CHECKOUT_PATH, body)
      if (!data?.url) throw new Error('no url')
      window.location.assign(data.url)
      // Busy until the browser leaves for the payment page.
    } catch (err) {
      setBusy(false)
      const found = problemFromError(err)
      // A registered e-mail concerns the account fields, and the box offers "Log in".
      show(found.code === 'email_registered' ? { ...found, fields: { email: found.message, password: found.message } } : found)
    }
  }

  const flag = (name: string) => (concerns(problem, name) ? { invalid: true, describedBy: errorId } : {})
  // "Log in" in the red box comes back to this page with the chosen package.
  const loginLink =
    problem?.code === 'email_registered'
      ? `/login?next=${encodeURIComponent(returnUrl(location.pathname, location.search, planKey ?? family.default_plan))}`
      : null

  const passwordToggle = (
    <button
      type="button"
      className="password-toggle"
      aria-pressed={showPassword}
      aria-label="Show password"
      onClick={() => setShowPassword((visible) => !visible)}
    >
      {showPassword ? 'Hide' : 'Show'}
    </button>
  )

  return (
    <form ref={formRef} className="purchase-form" method="post" noValidate onSubmit={handleSubmit} aria-busy={busy || undefined}>
      {problem && (
        <div ref={errorRef}>
          <ErrorBox id={errorId}>
            {problem.message}
            {loginLink && (
              <>
                {' '}
                <Link to={loginLink} className="error-box__link">
                  Log in
                </Link>
              </>
            )}
          </ErrorBox>
        </div>
      )}

      <section className="purchase-step" aria-labelledby={`${baseId}-details`}>
        <h2 id={`${baseId}-details`} className="purchase-step__title">
          Your details
        </h2>
        {/* The account fields and the signed-in line share one space: the user is known only
            after hydration, and the page must not move when they arrive. */}
        <div className={cx('purchase-account', user && 'purchase-account--signed-in')}>
          {user && (
            <p className="purchase-signed-in">
              <CheckIcon size={18} />
              <span>
                Signed in as <strong>{user.email}</strong>
              </span>
            </p>
          )}
          <div className="form-stack purchase-account__fields" hidden={user ? true : undefined} inert={user ? true : undefined}>
            <Field
              label="Full Name"
              name="full_name"
              autoComplete="name"
              required
              defaultValue=""
              {...flag('full_name')}
            />
            <Field
              label="Email Address"
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              required
              defaultValue=""
              {...flag('email')}
            />
            <Field
              label="Password"
              type={showPassword ? 'text' : 'password'}
              name="password"
              autoComplete="current-password"
              required
              hint="Used to access your dashboard. We never share it."
              defaultValue=""
              addon={passwordToggle}
              {...flag('password')}
            />
            <p className="purchase-step__note">
              Already have an account?{' '}
              <Link to={`/login?next=${encodeURIComponent(returnUrl(location.pathname, location.search, planKey ?? family.default_plan))}`}>
                Log in
              </Link>
            </p>
          </div>
        </div>
        {family.show_domain && (
          <Field
            className="purchase-domain"
            label={
              <>
                Domain Name <span className="field__optional">(optional)</span>
              </>
            }
            name="domain"
            placeholder="example.com"
            autoComplete="url"
            inputMode="url"
            hint="Enter without http:// or https://"
            defaultValue=""
            {...flag('domain')}
          />
        )}
      </section>

      <section className="purchase-step">
        <h2 id={packagesLabelId} className="purchase-step__title">
          Choose your package
        </h2>
        <div
          role="radiogroup"
          aria-labelledby={packagesLabelId}
          aria-required="true"
          aria-invalid={concerns(problem, 'plan') ? true : undefined}
          aria-describedby={concerns(problem, 'plan') ? errorId : undefined}
          className="package-list"
        >
          {shown.map((plan) => (
            <PackageOption
              key={plan.key}
              plan={plan}
              familyKey={family.key}
              checked={plan.key === planKey}
              onSelect={() => {
                setPlanKey(plan.key)
                if (concerns(problem, 'plan')) setProblem(null)
              }}
            />
          ))}
        </div>
        {!showAll && (
          <button type="button" className="link-button package-list__more" onClick={() => setShowAll(true)}>
            Show all {plans.length} packages
          </button>
        )}
      </section>

      <p className="purchase-consent">
        By continuing you agree to our <Link to="/terms">Terms of Service</Link> and{' '}
        <Link to="/privacy">Privacy Policy</Link>.
      </p>

      <div className="purchase-submit">
        {selected && (
          <p className="purchase-submit__summary" aria-hidden="true">
            <span className="purchase-submit__plan">{selected.name}</span>
            <span className="purchase-submit__price">{priceWithSuffix(selected)}</span>
          </p>
        )}
        <Button type="submit" size="lg" block busy={busy} className="purchase-submit__button">
          {family.cta}
        </Button>
      </div>

      <p className="purchase-secure">
        <LockIcon size={16} />
        Secure checkout with Stripe. Your card details never touch our servers.
      </p>
    </form>
  )
}

function PackageOption({
  plan,
  familyKey,
  checked,
  onSelect,
}: {
  plan: Plan
  familyKey: string
  checked: boolean
  onSelect: () => void
}) {
  const id = useId()
  const badge = badgeLabel(plan.badge, familyKey)
  const suffix = billingSuffix(plan)
  const hasOriginal = plan.original_price !== null && plan.original_price > plan.price
  return (
    <label className={cx('package-option', checked && 'package-option--checked', plan.badge && `package-option--${plan.badge}`)}>
      <input
        id={`${id}-choice`}
        type="radio"
        name="plan"
        value={plan.key}
        defaultChecked={checked}
        onChange={onSelect}
        className="package-option__input"
        aria-label={`${plan.name} ${priceWithSuffix(plan)}`}
        aria-describedby={`${id}-extra ${id}-desc`}
      />
      <span className="package-option__body">
        <span className="package-option__head">
          <span className="package-option__name">
            {plan.name}
          </span>
          {badge && plan.badge && (
            <Badge tone={BADGE_TONES[plan.badge]} className="package-option__badge">
              {badge}
            </Badge>
          )}
        </span>
        <span id={`${id}-desc`} className="package-option__desc">
          {plan.description}
        </span>
        {(plan.delivery || plan.guarantee) && (
          <span className="package-option__meta">
            {[plan.delivery && `Delivery in ${plan.delivery}`, plan.guarantee].filter(Boolean).join(' · ')}
          </span>
        )}
      </span>
      <span className="package-option__pricing">
        <span className="package-option__price">
          {formatPrice(plan.price, plan.currency)}
          <span className={cx('package-option__suffix', suffix === 'one-time' && 'package-option__suffix--spaced')}>{suffix}</span>
        </span>
        <span id={`${id}-extra`} className="package-option__extra">
          {badge && <span className="visually-hidden">{badge}. </span>}
          {hasOriginal && plan.original_price !== null && (
            <s className="package-option__was">
              <span className="visually-hidden">Was </span>
              {formatPrice(plan.original_price, plan.currency)}
            </s>
          )}
          {plan.save_percent !== null && plan.save_percent > 0 && (
            <span className="save-badge">Save {plan.save_percent}%</span>
          )}
        </span>
      </span>
    </label>
  )
}
