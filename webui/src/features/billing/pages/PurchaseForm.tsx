import { Suspense, lazy, useEffect, useId, useLayoutEffect, useRef, useState, type FocusEvent, type FormEvent } from 'react'
import { useLocation } from 'react-router-dom'
import { Link } from '../../../lib/router'
import { CheckIcon } from '../../../components/icons/CheckIcon'
import { LockIcon } from '../../../components/icons/LockIcon'
import { Badge } from '../../../components/ui/Badge'
import { Button } from '../../../components/ui/Button'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { Field } from '../../../components/ui/Field'
import { useAuth } from '../../../lib/auth'
import { PreviousPrice, badgeLabel, badgeTone, billingSuffix, type Family, type Plan } from '../../catalogue'
import {
  SMALL_BUSINESS_NOTE,
  loadTaxIsland,
  priceView,
  quoteLine,
  rateText,
  taxOf,
  treatment,
  usePrices,
  type PriceView,
  type TaxDisplay,
  type TaxState,
} from '../../tax'
// lib/money through purchase-money: the module the catalogue's chunk has (a page's own import
// would bundle a second copy into this chunk).
import { formatCents, useMoney } from '../purchase-money'
import { cx } from '../../../lib/cx'
import { concerns, useHydrated, type FormProblem } from '../../../lib/forms'
import { EARLY_START_CONSENT_TEXT, WITHDRAWAL_DAYS } from '../order-terms'
import type { CheckedField } from '../purchase-rules'
import type { CheckoutBody } from '../purchase-submit'
// Purchase styles load with the purchase pages only.
import '../purchase.css'

/** The order button (§312j(3) BGB): its words say that ordering obliges to pay. */
export const ORDER_BUTTON = 'Order with obligation to pay'

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
  /** The catalogue's tax block (its defaults when absent). */
  tax?: TaxDisplay
  /** Told the picked package's price as this buyer sees it (for the side panel). */
  onViewChange?: (view: PriceView | null) => void
}

const CHECKED_FIELDS: readonly string[] = ['full_name', 'email', 'password', 'domain']
// Loaded right after hydration, in one request (not needed to show the page): the field rules,
// what the browser remembers (a cancelled checkout's form, the buyer type) and the submit.
const later = () => import('../purchase-submit')
// The country, VAT ID and quote: rendered once hydrated, in a reserved space.
const TaxIsland = lazy(() => loadTaxIsland().then((m) => ({ default: m.TaxIsland })))
type Money = (cents: number, currency: string) => string

/** Where "Log in" should come back to: this page, with the chosen plan. */
function returnUrl(pathname: string, search: string, plan: string): string {
  const params = new URLSearchParams(search)
  params.delete('canceled')
  params.set('plan', plan)
  return `${pathname}?${params.toString()}`
}

/** "per month" or "one-time". */
function termsOf(plan: Pick<Plan, 'mode' | 'interval'>): string {
  return plan.mode === 'subscription' ? `per ${plan.interval ?? 'month'}` : 'one-time'
}

/** "€29 per month" or "€499 one-time" (`amount`: the price as the buyer sees it, in cents). */
export function priceTerms(
  plan: Pick<Plan, 'price' | 'currency' | 'mode' | 'interval'>,
  money: Money = formatCents,
  amount = plan.price,
): string {
  return `${money(amount, plan.currency)} ${termsOf(plan)}`
}

/** The order's net, VAT and total: the server's quote, or the estimate from the catalogue. */
export interface OrderFigures {
  currency: string
  net: number
  vat: number
  gross: number
  rate: number
  kind: string
  calculatedAtPayment: boolean
}

export const MSG_VAT_AT_PAYMENT = 'VAT is calculated at payment from your billing address.'

export function PurchaseForm({
  page,
  family,
  plans,
  initialPlan,
  narrow = false,
  canceled = false,
  onPlanChange,
  tax: taxBlock,
  onViewChange,
}: PurchaseFormProps) {
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
  // Whom the prices are for: the site's shared Private / Business choice (remembered).
  const prices = usePrices(taxBlock ? { tax: taxBlock } : null)
  const tax = taxOf(prices)
  const { buyer: buyerType, setBuyer: setBuyerType } = prices
  const { money, exact } = useMoney(prices.locale)
  // The country, the VAT ID's status and the quote, as the tax part (after hydration) says.
  const [taxState, setTaxState] = useState<TaxState>({ country: tax.vat_country, vatStatus: null, quoted: null, quoting: false })
  const { country, vatStatus, quoted, quoting } = taxState
  // A cancelled checkout's country, handed to the tax part.
  const [restoredCountry, setRestoredCountry] = useState<string | null>(null)
  // Signed in: the account fields keep their space until that cannot move anything on screen.
  const [collapsed, setCollapsed] = useState(false)

  const selected = plans.find((plan) => plan.key === planKey) ?? null
  const [showAll, setShowAll] = useState(!narrow || plans.length < 2)
  const shown = showAll ? plans : plans.filter((plan) => plan.key === planKey)

  // The buyer type radios are controlled by the shared choice (set programmatically, an
  // uncontrolled radio would no longer report the buyer's click back to React).
  const pickBuyer = setBuyerType

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
    const parts = later()
    if (!canceled || !form) return
    void parts.then(({ restoreDraft }) =>
      restoreDraft(form, page, plans, {
        plan: (key) => {
          restoredPlan.current = key
          if (!setRadio('plan', key)) setShowAll(true) // outside the narrowed list
          else pick(key)
        },
        // The remembered buyer type applies through usePrices; a cancelled checkout's wins.
        buyer: pickBuyer,
        country: setRestoredCountry,
      }),
    )
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
    void later()
      .then(({ accountBuyerType }) => accountBuyerType())
      .then(
        (stored) => {
          if (live && stored) pickBuyer(stored)
        },
        () => {},
      )
    return () => {
      live = false
    }
    // Once per user; pickBuyer only touches the form and the state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user])

  // Signed in: the hidden account fields give their space back when that moves nothing on
  // screen (collapseAccount).
  useEffect(() => {
    if (!user) return
    let live = true
    let stop = () => {}
    void later().then(({ collapseAccount }) => {
      if (live) stop = collapseAccount(accountRef.current, () => setCollapsed(true))
    })
    return () => {
      live = false
      stop()
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
    const message = (await later()).fieldProblem(name, value)
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
    const form = event.currentTarget
    const { checkOrder, placeOrder } = await later()
    const context = { page, family, plans, signedIn: Boolean(user), vatCountry: tax.vat_country }
    const body = checkOrder(form, context)
    if ('message' in body) {
      show(body)
      return
    }
    setProblem(null)
    setFieldErrors({})
    setBusy(true)
    // Busy until the browser leaves for the payment page.
    const refused = await placeOrder(body, context)
    if (refused) {
      setBusy(false)
      show(refused)
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
  // The quote when it is for this package (the last one while a new one is on its way), else
  // the estimate from the catalogue's rates.
  const how = treatment(tax, buyerType, country, vatStatus)
  const estimate = selected ? quoteLine(selected.price, how, tax.prices_include_vat) : null
  const serverQuote = selected && quoted?.plan === selected.key ? quoted.quote : null
  const figures: OrderFigures | null = serverQuote
    ? { ...serverQuote, calculatedAtPayment: serverQuote.calculated_at_payment }
    : estimate && selected
      ? { ...estimate, currency: selected.currency, rate: how.rate, kind: how.kind, calculatedAtPayment: false }
      : null
  const viewOf = (plan: Plan) => priceView(tax, buyerType, plan.price, plan.original_price, country, vatStatus)
  const selectedView = selected ? viewOf(selected) : null
  const viewKey = selectedView ? `${selectedView.amount} ${selectedView.note}` : ''
  useEffect(() => {
    onViewChange?.(selectedView)
    // viewKey stands for selectedView.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [viewKey, onViewChange])

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
              money={money}
              view={viewOf(plan)}
              alt={priceView(tax, buyerType === 'business' ? 'consumer' : 'business', plan.price, plan.original_price, country, vatStatus)}
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

      <OrderSummary plan={selected} money={money} exact={exact} view={selected ? viewOf(selected) : null} figures={figures} busy={quoting} />

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
                  checked={buyerType === value}
                  onChange={() => setBuyerType(value)}
                />
                {value === 'consumer' ? 'as a consumer' : 'as a business'}
              </label>
            ))}
          </div>
        </fieldset>
        {/* The country and VAT ID come once the page has hydrated, in a space kept for them. */}
        <div className="purchase-tax-slot">
          {hydrated && (
            <Suspense fallback={null}>
              <TaxIsland
                tax={tax}
                buyer={buyerType}
                plan={selected?.key ?? null}
                restoreCountry={restoredCountry}
                fieldError={fieldErrors.vat_id}
                onChange={setTaxState}
              />
            </Suspense>
          )}
        </div>
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
        {selected && figures && (
          <p className="purchase-submit__summary" aria-hidden="true">
            <span className="purchase-submit__plan">{selected.name}</span>
            <span className="purchase-submit__price">{priceTerms(selected, money, figures.gross)}</span>
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

/** The selected package as it will be ordered: name, price and its terms, net, VAT and total
 * for the buyer's country and type, delivery, guarantee. */
export function OrderSummary({
  plan,
  money = formatCents,
  exact = formatCents,
  view,
  figures,
  busy = false,
}: {
  plan: Plan | null
  money?: Money
  /** Amounts to the cent here, as on the invoice ("€419.33", "€499.00"). */
  exact?: Money
  view: { amount: number; note: string } | null
  figures: OrderFigures | null
  busy?: boolean
}) {
  const id = useId()
  return (
    <section className="order-summary" aria-labelledby={`${id}-title`} aria-live="polite" aria-busy={busy || undefined}>
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
            <dd>
              {priceTerms(plan, money, view?.amount)} <span className="order-summary__note">{view?.note}</span>
            </dd>
          </div>
          {figures && <TaxLines figures={figures} plan={plan} money={exact} />}
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
      {plan && figures?.calculatedAtPayment && <p className="order-summary__at-payment">{MSG_VAT_AT_PAYMENT}</p>}
    </section>
  )
}

/** Net, VAT (its rate, reverse charge, or the small-business note) and total. */
function TaxLines({ figures, plan, money }: { figures: OrderFigures; plan: Plan; money: Money }) {
  const per = plan.mode === 'subscription' ? ` per ${plan.interval ?? 'month'}` : ''
  let vatLabel: string
  if (figures.kind === 'reverse_charge') vatLabel = 'VAT (Reverse charge, 0\u00a0%)'
  else if (figures.kind === 'outside_eu') vatLabel = 'VAT (0\u00a0%, outside the EU)'
  else vatLabel = `VAT (${rateText(figures.rate)})`
  return (
    <>
      <div className="order-summary__tax">
        <dt>Net</dt>
        <dd data-figure="net">{money(figures.net, figures.currency)}</dd>
      </div>
      <div>
        {figures.kind === 'small_business' ? (
          <>
            <dt>VAT</dt>
            <dd data-figure="vat">{SMALL_BUSINESS_NOTE}</dd>
          </>
        ) : (
          <>
            <dt>{vatLabel}</dt>
            <dd data-figure="vat">{money(figures.vat, figures.currency)}</dd>
          </>
        )}
      </div>
      <div className="order-summary__total">
        <dt>Total</dt>
        <dd data-figure="total">
          {money(figures.gross, figures.currency)}
          {per}
        </dd>
      </div>
    </>
  )
}

/** Both texts in one grid cell, the other one hidden: the cell is as wide as the wider, so the
 * price does not move when the remembered buyer type applies after hydration. */
function Both({ shown, other, className }: { shown: string; other: string; className?: string }) {
  return (
    <span className={cx('both', className)}>
      <span>{shown}</span>
      <span className="both__other" aria-hidden="true">
        {other}
      </span>
    </span>
  )
}

function PackageOption({
  plan,
  money,
  view,
  alt,
  familyKey,
  checked,
  onSelect,
}: {
  plan: Plan
  money: Money
  /** The price as the buyer sees it, and as the other buyer type would (for the width). */
  view: PriceView
  alt: PriceView
  familyKey: string
  checked: boolean
  onSelect: () => void
}) {
  const id = useId()
  const badge = badgeLabel(plan.badge, familyKey)
  const suffix = billingSuffix(plan)
  const amount = money(view.amount, plan.currency)
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
        aria-label={`${plan.name} ${amount}${suffix.startsWith('/') ? '' : ' '}${suffix} ${view.note}`}
        aria-describedby={`${id}-extra ${id}-desc`}
      />
      <span className="package-option__body">
        <span className="package-option__head">
          <span className="package-option__name">{plan.name}</span>
          {badge && plan.badge && (
            <Badge tone={badgeTone(plan.badge)} className="package-option__badge">
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
          <Both shown={amount} other={money(alt.amount, plan.currency)} />
          <span className={cx('package-option__suffix', suffix === 'one-time' && 'package-option__suffix--spaced')}>{suffix}</span>
        </span>
        <span id={`${id}-extra`} className="package-option__extra">
          {badge && <span className="visually-hidden">{badge}. </span>}
          {view.was !== null && <PreviousPrice plan={plan} amount={view.was} format={money} className="package-option__was" />}
          {view.save !== null && <span className="save-badge">Save {view.save}%</span>}
        </span>
        <Both shown={view.note} other={alt.note} className="package-option__tax" />
      </span>
    </label>
  )
}
