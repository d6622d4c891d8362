import { useEffect, useId, useLayoutEffect, useRef, useState, type FocusEvent, type FormEvent } from 'react'
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
import { PreviousPrice, badgeLabel, billingSuffix, formatPrice, priceWithSuffix, type Family, type Plan, type PlanBadge } from '../catalogue'
import { cx } from '../../lib/cx'
import { concerns, formValues, problem as formProblem, problemFromError, useHydrated, type FormProblem } from '../../lib/forms'
import { EARLY_START_CONSENT_TEXT, EARLY_START_CONSENT_VERSION, WITHDRAWAL_DAYS, type BuyerType } from './order-terms'
import type { CheckedField } from './purchase-rules'
// Purchase styles load with the purchase pages only.
import './purchase.css'

export const CHECKOUT_PATH = '/api/billing/checkout'
export const BUYER_PATH = '/api/billing/buyer'
export const MSG_SELECT_PACKAGE = 'Please select a package'
export const MSG_CHECK_FIELDS = 'Please correct the highlighted fields'
/** The order button (§312j(3) BGB): its words say that ordering obliges to pay. */
export const ORDER_BUTTON = 'Order with obligation to pay'

type CheckoutBody = NonNullable<RequestBody<typeof CHECKOUT_PATH, 'post'>>

export type PurchasePage = NonNullable<CheckoutBody['page']>

export interface PurchaseFormProps {
  page: PurchasePage
  /** The family whose texts (domain field) apply. */
  family: Family
  /** The packages offered, in display order. */
  plans: Plan[]
  /** Preselected plan key. */
  initialPlan: string | null
  /** Show only the preselected package until the buyer asks for all of them. */
  narrow?: boolean
  /** Back from a cancelled checkout: the form is filled as it was sent. */
  canceled?: boolean
  /** Told the package picked, for the summary beside the form. */
  onPlanChange?: (planKey: string | null) => void
}

const BADGE_TONES: Record<PlanBadge, BadgeTone> = { popular: 'purple', premium: 'blue', launch: 'green' }
const FIELD_NAMES = ['plan', 'full_name', 'email', 'password', 'domain', 'buyer_type', 'early_start'] as const
const CHECKED_FIELDS: readonly string[] = ['full_name', 'email', 'password', 'domain']
// Loaded after the first paint (they are not needed to show the page): the field rules, and
// what the browser remembers (the buyer type, a cancelled checkout's form).
const rules = () => import('./purchase-rules')
const memory = () => import('./purchase-memory')

/** Where "Log in" should come back to: this page, with the chosen plan. */
function returnUrl(pathname: string, search: string, plan: string): string {
  const params = new URLSearchParams(search)
  params.delete('canceled')
  params.set('plan', plan)
  return `${pathname}?${params.toString()}`
}

/** "€29 per month" or "€499 one-time". */
export function priceTerms(plan: Pick<Plan, 'price' | 'currency' | 'mode' | 'interval'>): string {
  const per = plan.mode === 'subscription' ? `per ${plan.interval ?? 'month'}` : 'one-time'
  return `${formatPrice(plan.price, plan.currency)} ${per}`
}

export function PurchaseForm({ page, family, plans, initialPlan, narrow = false, canceled = false, onPlanChange }: PurchaseFormProps) {
  const { user } = useAuth()
  const location = useLocation()
  const baseId = useId()
  const errorId = `${baseId}-error`
  const packagesLabelId = `${baseId}-packages`
  const errorRef = useRef<HTMLDivElement>(null)
  const accountRef = useRef<HTMLDivElement>(null)

  const [planKey, setPlanKey] = useState<string | null>(
    initialPlan && plans.some((plan) => plan.key === initialPlan) ? initialPlan : null,
  )
  const formRef = useRef<HTMLFormElement>(null)
  // A cancelled checkout's package, checked once its radio is on the page.
  const restoredPlan = useRef<string | null>(null)
  const [showPassword, setShowPassword] = useState(false)
  const [busy, setBusy] = useState(false)
  const hydrated = useHydrated()
  const [problem, setProblem] = useState<FormProblem | null>(null)
  // Each field's own message (left with a broken value, or named by the server).
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<string, string>>>({})
  const [buyerType, setBuyerType] = useState<BuyerType>('consumer')
  // Signed in: the account fields keep their space until that cannot move anything on screen.
  const [collapsed, setCollapsed] = useState(false)

  const selected = plans.find((plan) => plan.key === planKey) ?? null
  const [showAll, setShowAll] = useState(!narrow || plans.length < 2)
  const shown = showAll ? plans : plans.filter((plan) => plan.key === planKey)

  const pickBuyer = (value: BuyerType) => {
    setRadio('buyer_type', value)
    setBuyerType(value)
  }

  const pick = (key: string | null) => {
    setPlanKey(key)
    onPlanChange?.(key)
  }

  const setRadio = (name: string, value: string) => {
    const input = formRef.current?.querySelector<HTMLInputElement>(`input[name="${name}"][value="${CSS.escape(value)}"]`)
    if (input) input.checked = true
    return input !== null && input !== undefined
  }

  // The inputs are uncontrolled like the other public forms; the state mirrors the checked
  // radios for the highlight, the summary and the consumer's notice. A choice made on the
  // prerendered page before React hydrated it is in the form, not in the state: look.
  useLayoutEffect(() => {
    const form = formRef.current
    const checked = form?.querySelector<HTMLInputElement>('input[name="plan"]:checked')
    if (checked) pick(checked.value)
    if (form?.querySelector<HTMLInputElement>('input[name="buyer_type"]:checked')?.value === 'business') pickBuyer('business')
    // Runs once, as the page hydrates.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  // Then what the browser remembers: a cancelled checkout's form, else the buyer type.
  useEffect(() => {
    const form = formRef.current
    void memory().then(({ rememberedBuyerType, takeDraft }) => {
      if (!form) return
      const draft = canceled ? takeDraft(page) : null
      if (draft?.plan && plans.some((plan) => plan.key === draft.plan)) {
        restoredPlan.current = draft.plan
        if (!setRadio('plan', draft.plan)) setShowAll(true) // outside the narrowed list
        else pick(draft.plan)
      }
      const chosen = draft?.buyer_type ?? rememberedBuyerType()
      if (chosen && !form.querySelector('input[name="buyer_type"][value="business"]:checked')) pickBuyer(chosen)
      for (const name of ['domain', 'full_name', 'email'] as const) {
        const input = form.elements.namedItem(name)
        const value = draft?.[name]
        if (input instanceof HTMLInputElement && value && input.value === '') input.value = value
      }
    })
    // Runs once, after the page hydrated.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  // The restored plan may be one of the packages the narrowed list did not show.
  useEffect(() => {
    if (restoredPlan.current && setRadio('plan', restoredPlan.current)) {
      pick(restoredPlan.current)
      restoredPlan.current = null
    }
  })

  // A signed-in buyer: how they bought before, unless this browser already says.
  useEffect(() => {
    if (!user) return
    let live = true
    void Promise.all([api.get(BUYER_PATH), memory()]).then(
      ([data, { isBuyerType, rememberedBuyerType }]) => {
        const stored = data?.buyer_type
        if (live && isBuyerType(stored) && rememberedBuyerType() === null) pickBuyer(stored)
      },
      () => {},
    )
    return () => {
      live = false
    }
    // Once per user; pickBuyer only touches the form and the state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user])

  // Signed in: the hidden account fields give their space back at once when they are below the
  // screen (nothing visible moves), else with the buyer's first click or key (a shift the
  // buyer caused, which does not count as one).
  useEffect(() => {
    if (!user) return
    const collapse = () => setCollapsed(true)
    const box = accountRef.current
    if (!box || box.getBoundingClientRect().top >= window.innerHeight) {
      const frame = requestAnimationFrame(collapse)
      return () => cancelAnimationFrame(frame)
    }
    window.addEventListener('pointerdown', collapse, { once: true, capture: true })
    window.addEventListener('keydown', collapse, { once: true, capture: true })
    return () => {
      window.removeEventListener('pointerdown', collapse, { capture: true })
      window.removeEventListener('keydown', collapse, { capture: true })
    }
  }, [user])

  const show = (next: FormProblem) => {
    setProblem(next)
    setFieldErrors({ ...next.fields })
    // The submit button may sit in the bottom bar, far from the message: bring it into view.
    requestAnimationFrame(() => errorRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' }))
  }

  /** A field left (blur) or changed while marked: its own message, or none once it is valid. */
  const check = async (name: CheckedField, value: string, leaving: boolean) => {
    if (!leaving && !fieldErrors[name]) return // typing in a field not marked: wait for blur
    if (leaving && name !== 'domain' && value === '' && !fieldErrors[name]) return // just passing through
    const message = (await rules()).fieldProblem(name, value)
    setFieldErrors((current) => {
      if ((current[name] ?? null) === message) return current
      const next = { ...current }
      if (message) next[name] = message
      else delete next[name]
      return next
    })
    if (!message && problem && concerns(problem, name)) {
      const rest = Object.keys(problem.fields).filter((field) => field !== name)
      if (rest.length === 0) setProblem(null)
    }
  }

  const handleBlur = (event: FocusEvent<HTMLFormElement>) => {
    const target = event.target
    if (target instanceof HTMLInputElement && CHECKED_FIELDS.includes(target.name)) {
      void check(target.name as CheckedField, target.value, true)
    }
  }

  const handleInput = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target
    if (target instanceof HTMLInputElement && CHECKED_FIELDS.includes(target.name)) {
      void check(target.name as CheckedField, target.value, false)
    }
  }

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const current = formValues(event.currentTarget, FIELD_NAMES)
    const [{ fieldProblem }, { rememberBuyerType, saveDraft }] = await Promise.all([rules(), memory()])
    const chosen = plans.find((plan) => plan.key === current.plan) ?? null
    if (!chosen) {
      show(formProblem(MSG_SELECT_PACKAGE, ['plan']))
      return
    }
    const names = (user ? ['domain'] : CHECKED_FIELDS) as readonly CheckedField[]
    const found: Record<string, string> = {}
    for (const name of names) {
      if (name === 'domain' && !family.show_domain) continue
      const message = fieldProblem(name, current[name])
      if (message) found[name] = message
    }
    const messages = Object.values(found)
    if (messages.length > 0) {
      show({ message: messages.length === 1 ? (messages[0] ?? MSG_CHECK_FIELDS) : MSG_CHECK_FIELDS, fields: found })
      return
    }
    setProblem(null)
    setFieldErrors({})
    setBusy(true)
    const buyer: BuyerType = current.buyer_type === 'business' ? 'business' : 'consumer'
    const consent = buyer === 'consumer' && current.early_start === 'yes'
    const body: CheckoutBody = { plan: chosen.key, page, buyer_type: buyer, early_start_consent: consent }
    if (consent) body.consent_version = EARLY_START_CONSENT_VERSION
    const domain = current.domain.trim()
    if (family.show_domain && domain !== '') body.domain = domain
    if (!user) {
      body.full_name = current.full_name.trim()
      body.email = current.email.trim()
      body.password = current.password
    }
    rememberBuyerType(buyer)
    saveDraft({
      page,
      plan: chosen.key,
      domain: family.show_domain ? domain : '',
      buyer_type: buyer,
      full_name: body.full_name ?? '',
      email: body.email ?? '',
    })
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

  const fieldProps = (name: string) => {
    const message = fieldErrors[name]
    if (message) return { error: message }
    return concerns(problem, name) ? { invalid: true, describedBy: errorId } : {}
  }
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

  const consumer = buyerType === 'consumer'

  return (
    <form
      ref={formRef}
      className="purchase-form"
      method="post"
      noValidate
      onSubmit={handleSubmit}
      onBlur={handleBlur}
      onInput={handleInput}
      aria-busy={busy || undefined}
    >
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
                pick(plan.key)
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

      <OrderSummary plan={selected} />

      <section className="purchase-step" aria-labelledby={`${baseId}-details`}>
        <h2 id={`${baseId}-details`} className="purchase-step__title">
          Your details
        </h2>
        <fieldset className="buyer-type">
          <legend className="buyer-type__legend">You order</legend>
          <div className="buyer-type__options">
            {(['consumer', 'business'] as const).map((value) => (
              <label key={value} className={cx('buyer-type__option', buyerType === value && 'buyer-type__option--checked')}>
                <input
                  type="radio"
                  name="buyer_type"
                  value={value}
                  defaultChecked={value === 'consumer'}
                  onChange={() => {
                    setBuyerType(value)
                    void memory().then((m) => m.rememberBuyerType(value))
                  }}
                />
                {value === 'consumer' ? 'as a consumer' : 'as a business'}
              </label>
            ))}
          </div>
        </fieldset>
        {/* The account fields and the signed-in line share one space while the page may still
            be on screen as it was first drawn (see `collapsed`). */}
        <div
          ref={accountRef}
          className={cx('purchase-account', user && 'purchase-account--signed-in', user && collapsed && 'purchase-account--collapsed')}
        >
          {user && (
            <p className="purchase-signed-in">
              <CheckIcon size={18} />
              <span>
                Signed in as <strong>{user.email}</strong>
              </span>
            </p>
          )}
          <div className="form-stack purchase-account__fields" hidden={user ? true : undefined} inert={user ? true : undefined}>
            <Field label="Full Name" name="full_name" autoComplete="name" required defaultValue="" {...fieldProps('full_name')} />
            <Field
              label="Email Address"
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              required
              defaultValue=""
              {...fieldProps('email')}
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
              {...fieldProps('password')}
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
            {...fieldProps('domain')}
          />
        )}
      </section>

      {consumer && (
        <section className="purchase-withdrawal" aria-label="Your right of withdrawal">
          <p>
            As a consumer you may withdraw from this contract within {WITHDRAWAL_DAYS} days, as the{' '}
            <Link to="/withdrawal">withdrawal information</Link> explains. We start work when that period has ended,
            unless you ask us to start now:
          </p>
          <label className="purchase-withdrawal__consent">
            <input type="checkbox" name="early_start" value="yes" defaultChecked={false} />
            <span>{EARLY_START_CONSENT_TEXT}</span>
          </label>
        </section>
      )}

      <div className="purchase-submit">
        {selected && (
          <p className="purchase-submit__summary" aria-hidden="true">
            <span className="purchase-submit__plan">{selected.name}</span>
            <span className="purchase-submit__price">{priceWithSuffix(selected)}</span>
          </p>
        )}
        <p className="purchase-legal">
          By ordering you enter a contract with an obligation to pay for the package above. See our{' '}
          <Link to="/terms">terms</Link>, <Link to="/withdrawal">withdrawal information</Link> and{' '}
          <Link to="/privacy">privacy policy</Link>.
        </p>
        {/* Enabled once hydrated: a click before would post the prerendered form natively. */}
        <Button type="submit" size="lg" block busy={busy} disabled={!hydrated} className="purchase-submit__button">
          {ORDER_BUTTON}
        </Button>
      </div>

      <p className="purchase-secure">
        <LockIcon size={16} />
        Secure checkout with Stripe. Your card details never touch our servers.
      </p>
    </form>
  )
}

/** The selected package as it will be ordered: name, price and its terms, delivery, guarantee. */
export function OrderSummary({ plan }: { plan: Plan | null }) {
  const id = useId()
  return (
    <section className="order-summary" aria-labelledby={`${id}-title`} aria-live="polite">
      <h2 id={`${id}-title`} className="order-summary__title">
        Your order
      </h2>
      {plan ? (
        <dl className="order-summary__list">
          <div>
            <dt>Package</dt>
            <dd>{plan.name}</dd>
          </div>
          <div>
            <dt>Price</dt>
            <dd>{priceTerms(plan)}</dd>
          </div>
          {plan.mode === 'subscription' && (
            <div>
              <dt>Term</dt>
              <dd>Renews every {plan.interval ?? 'month'}; cancel any time to the end of the paid period</dd>
            </div>
          )}
          {plan.delivery && (
            <div>
              <dt>Delivery</dt>
              <dd>in {plan.delivery}</dd>
            </div>
          )}
          {plan.guarantee && (
            <div>
              <dt>Guarantee</dt>
              <dd>{plan.guarantee}</dd>
            </div>
          )}
        </dl>
      ) : (
        <p className="order-summary__empty">Choose a package above.</p>
      )}
    </section>
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
          <span className="package-option__name">{plan.name}</span>
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
          {hasOriginal && <PreviousPrice plan={plan} className="package-option__was" />}
          {plan.save_percent !== null && plan.save_percent > 0 && <span className="save-badge">Save {plan.save_percent}%</span>}
        </span>
      </span>
    </label>
  )
}
