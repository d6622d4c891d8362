import { useEffect, useId, useRef, useState, type RefObject } from 'react'
import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadState } from '../../../components/dashboard/LoadState'
import { Badge } from '../../../components/ui/Badge'
import { Button } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { Field } from '../../../components/ui/Field'
import { Notice } from '../../../components/ui/Notice'
import { cx } from '../../../lib/cx'
import type { FormProblem } from '../../../lib/forms'
import { useApiData } from '../../../lib/use-api-data'
import {
  BADGES,
  badgeText,
  DELIVERY_MAX,
  DESCRIPTION_MAX,
  fetchAdminCatalogue,
  formatWhen,
  formValuesOf,
  GUARANTEE_MAX,
  money,
  NAME_MAX,
  planChanges,
  priceText,
  problemOf,
  sourceText,
  updatePlan,
  valuesOf,
  withPlan,
  type AdminCatalogue,
  type AdminFamily,
  type AdminPlan,
  type PlanChanges,
  type PlanFormValues,
} from './catalogue-admin'

const FORM_FIELDS = ['name', 'price', 'badge', 'delivery', 'guarantee', 'features', 'description'] as const

/** /dashboard/admin/catalogue (admins): every family and plan; edit a plan, change its price, hide it from sale. */
export default function AdminCataloguePage() {
  const loaded = useApiData('catalogue', fetchAdminCatalogue)
  // Plans saved since the catalogue was loaded (the server's answer to each change).
  const [saved, setSaved] = useState<{ data: AdminCatalogue; plans: AdminPlan[] } | null>(null)
  const data = loaded.data
  const catalogue =
    data && saved?.data === data ? saved.plans.reduce((current, plan) => withPlan(current, plan), data) : data
  const state = { ...loaded, data: catalogue }
  const onSaved = (plan: AdminPlan) => {
    if (!data) return
    setSaved((before) => ({ data, plans: [...(before?.data === data ? before.plans : []), plan] }))
  }

  return (
    <div className="dash-page catalogue-admin">
      <DashPageHeader
        heading="Catalogue"
        text="The service families and their plans as the public pages sell them. A new price is made at Stripe at once; existing subscribers keep the price they pay."
      />
      <LoadState state={state} loading="Loading the catalogue" failed="We could not load the catalogue.">
        {(current) =>
          current.families.length === 0 ? (
            <Card className="dash-card empty-state">
              <p className="empty-state__title">The catalogue is empty.</p>
              <p className="empty-state__text">
                Load it from config/catalogue.toml with <code>agency catalogue seed</code>.
              </p>
            </Card>
          ) : (
            <>
              {!current.payments_configured && (
                <p className="catalogue-admin__note" role="note">
                  Payments are not set up: changes are saved here, and <code>agency stripe sync</code> creates the
                  Stripe prices once they are.
                </p>
              )}
              {current.families.map((family) => (
                <FamilySection
                  key={family.key}
                  family={family}
                  paymentsConfigured={current.payments_configured}
                  onSaved={onSaved}
                  onReload={loaded.reload}
                />
              ))}
            </>
          )
        }
      </LoadState>
    </div>
  )
}

interface PlanProps {
  paymentsConfigured: boolean
  onSaved: (plan: AdminPlan) => void
  onReload: () => void
}

function FamilySection({ family, ...rest }: { family: AdminFamily } & PlanProps) {
  const id = useId()
  const onSale = family.plans.filter((plan) => plan.on_sale).length
  return (
    <section className="catalogue-admin__family" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="catalogue-admin__family-title">
        {family.title}
      </h2>
      <p className="catalogue-admin__family-meta">
        {family.plans.length === 1 ? '1 plan' : `${family.plans.length} plans`}, {onSale} on sale
      </p>
      {family.plans.length === 0 ? (
        <p className="catalogue-admin__family-meta">No plans in this family.</p>
      ) : (
        <ul className="catalogue-admin__plans">
          {family.plans.map((plan) => (
            <li key={plan.key}>
              <PlanCard plan={plan} isDefault={plan.key === family.default_plan} {...rest} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

type Mode = 'view' | 'edit' | 'confirm-price' | 'confirm-hide'

function PlanCard({ plan, isDefault, paymentsConfigured, onSaved, onReload }: { plan: AdminPlan; isDefault: boolean } & PlanProps) {
  const id = useId()
  const [mode, setMode] = useState<Mode>('view')
  const [busy, setBusy] = useState(false)
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null)
  const [done, setDone] = useState<{ message: string; warning: string | null } | null>(null)
  const [pending, setPending] = useState<PlanChanges | null>(null)
  const editButton = useRef<HTMLButtonElement>(null)
  const confirmHeading = useRef<HTMLHeadingElement>(null)
  const firstField = useRef<HTMLInputElement>(null)
  // Where the keyboard focus goes once the next render is on screen (the button that opened
  // a form or a question gets it back; a question's heading, the form's first field).
  const focusNext = useRef<'edit' | 'confirm' | 'form' | null>(null)
  const setFocusAfter = (target: 'edit' | 'confirm' | 'form') => {
    focusNext.current = target
  }

  useEffect(() => {
    const target = focusNext.current
    if (target === null) return
    focusNext.current = null
    if (target === 'edit') editButton.current?.focus()
    if (target === 'confirm') confirmHeading.current?.focus()
    if (target === 'form') firstField.current?.focus()
  })

  async function save(changes: PlanChanges) {
    if (busy) return
    setBusy(true)
    setFormProblem(null)
    try {
      const answer = await updatePlan(plan.key, changes)
      onSaved(answer.plan)
      setDone({ message: answer.message, warning: answer.warning ?? null })
      setPending(null)
      setMode('view')
      setFocusAfter('edit')
    } catch (err) {
      setFormProblem(problemOf(err))
      if (mode === 'confirm-price') setMode('edit')
    } finally {
      setBusy(false)
    }
  }

  function submit(form: HTMLFormElement) {
    const values: PlanFormValues = valuesOf(form, FORM_FIELDS)
    const found = planChanges(plan, values)
    if ('problem' in found) {
      setFormProblem(found.problem)
      return
    }
    setFormProblem(null)
    if (Object.keys(found.changes).length === 0) {
      setDone({ message: 'Nothing changed.', warning: null })
      setMode('view')
      setFocusAfter('edit')
      return
    }
    if (found.changes.price !== undefined) {
      setPending(found.changes)
      setMode('confirm-price')
      setFocusAfter('confirm')
      return
    }
    void save(found.changes)
  }

  const editing = mode === 'edit' || mode === 'confirm-price'
  const errorId = `${id}-error`
  const invalid = (name: string) => formProblem !== null && Object.hasOwn(formProblem.fields, name)
  const fieldError = (name: string) => (invalid(name) ? formProblem?.fields[name] : undefined)

  return (
    <Card className={cx('dash-card catalogue-plan', !plan.on_sale && 'catalogue-plan--hidden')} aria-labelledby={`${id}-name`}>
      <div className="catalogue-plan__head">
        <h3 id={`${id}-name`} className="catalogue-plan__name">
          {plan.name}
        </h3>
        <div className="catalogue-plan__badges">
          {plan.on_sale ? <Badge tone="green">On sale</Badge> : <Badge tone="grey">Hidden</Badge>}
          {!plan.checkout && <Badge tone="blue">Not sold via /start</Badge>}
          {isDefault && <Badge tone="purple">Family default</Badge>}
        </div>
      </div>
      <p className="catalogue-plan__price">
        <strong>{priceText(plan)}</strong>
        {plan.original_price !== null && (
          <span className="catalogue-plan__previous">
            {' '}
            (previous price <s>{money(plan.original_price, plan.currency)}</s>)
          </span>
        )}
      </p>
      <dl className="catalogue-plan__facts">
        <div>
          <dt>Key</dt>
          <dd>
            <code>{plan.key}</code>
          </dd>
        </div>
        <div>
          <dt>Badge</dt>
          <dd>{badgeText(plan.badge)}</dd>
        </div>
        <div>
          <dt>Delivery</dt>
          <dd>{plan.delivery ?? 'None'}</dd>
        </div>
        <div>
          <dt>Guarantee</dt>
          <dd>{plan.guarantee ?? 'None'}</dd>
        </div>
        <div>
          <dt>Features</dt>
          <dd>{plan.features.length}</dd>
        </div>
        <div>
          <dt>Stripe price</dt>
          <dd>
            {plan.stripe_price_id ? (
              <code className="catalogue-plan__id">{plan.stripe_price_id}</code>
            ) : plan.checkout ? (
              'Not made yet (agency stripe sync)'
            ) : (
              'None (not sold through checkout)'
            )}
          </dd>
        </div>
      </dl>

      {done && (
        <div className="catalogue-plan__done">
          <Notice>{done.message}</Notice>
          {done.warning && <ErrorBox title="Still to do">{done.warning}</ErrorBox>}
        </div>
      )}

      {mode === 'view' && (
        <div className="catalogue-plan__actions">
          <Button
            ref={editButton}
            size="sm"
            onClick={() => {
              setDone(null)
              setFormProblem(null)
              setMode('edit')
              setFocusAfter('form')
            }}
          >
            Edit {plan.name}
          </Button>
          {plan.on_sale ? (
            <Button size="sm" variant="outline" onClick={() => { setDone(null); setMode('confirm-hide'); setFocusAfter('confirm') }}>
              Hide from sale
            </Button>
          ) : (
            <Button size="sm" variant="outline" busy={busy} onClick={() => void save({ on_sale: true })}>
              Put back on sale
            </Button>
          )}
        </div>
      )}

      {mode === 'confirm-hide' && (
        <div className="catalogue-plan__confirm" role="group" aria-labelledby={`${id}-confirm`}>
          <h4 id={`${id}-confirm`} ref={confirmHeading} tabIndex={-1} className="catalogue-plan__confirm-title">
            Hide {plan.name} from sale?
          </h4>
          <p>
            It leaves the public pages and checkout on their next request. Existing customers keep their subscriptions and
            orders; you can put it back on sale at any time.
          </p>
          {formProblem && <ErrorBox>{formProblem.message}</ErrorBox>}
          <div className="catalogue-plan__actions">
            <Button size="sm" variant="danger" busy={busy} onClick={() => void save({ on_sale: false })}>
              Hide from sale
            </Button>
            <Button size="sm" variant="outline" disabled={busy} onClick={() => { setFormProblem(null); setMode('view'); setFocusAfter('edit') }}>
              Keep on sale
            </Button>
          </div>
        </div>
      )}

      {editing && (
        <form
          id={`${id}-form`}
          className="catalogue-plan__form"
          noValidate
          aria-label={`Edit ${plan.name}`}
          onSubmit={(event) => {
            event.preventDefault()
            submit(event.currentTarget)
          }}
        >
          <PlanFields
            plan={plan}
            ids={id}
            errorId={errorId}
            fieldError={fieldError}
            firstField={firstField}
            disabled={mode === 'confirm-price' || busy}
          />
          {formProblem && (
            <ErrorBox id={errorId}>
              {formProblem.message}
              {formProblem.code === 'plan_changed' && (
                <>
                  {' '}
                  <button type="button" className="catalogue-plan__reload" onClick={onReload}>
                    Reload the catalogue
                  </button>
                </>
              )}
            </ErrorBox>
          )}
          {mode === 'edit' ? (
            <div className="catalogue-plan__actions">
              <Button type="submit" size="sm" busy={busy}>
                Save
              </Button>
              <Button size="sm" variant="outline" disabled={busy} onClick={() => { setFormProblem(null); setMode('view'); setFocusAfter('edit') }}>
                Cancel
              </Button>
            </div>
          ) : (
            typeof pending?.price === 'number' && (
              <div className="catalogue-plan__confirm" role="group" aria-labelledby={`${id}-confirm`}>
                <h4 id={`${id}-confirm`} ref={confirmHeading} tabIndex={-1} className="catalogue-plan__confirm-title">
                  Change the price of {plan.name}?
                </h4>
                <p>
                  From {priceText(plan)} to <strong>{priceText(plan, pending.price)}</strong>. Existing subscribers keep
                  their current price; new orders pay the new one. The old price stays in the price history
                  {pending.price < plan.price ? ' and is shown struck through as the previous price' : ''}.
                </p>
                {paymentsConfigured ? (
                  <p>A new Stripe price is created and the old one archived.</p>
                ) : (
                  <p>Payments are not set up: agency stripe sync creates the Stripe price later.</p>
                )}
                <div className="catalogue-plan__actions">
                  <Button size="sm" busy={busy} onClick={() => void save(pending)}>
                    Change the price
                  </Button>
                  <Button size="sm" variant="outline" disabled={busy} onClick={() => { setMode('edit'); setFocusAfter('form') }}>
                    Back to the form
                  </Button>
                </div>
              </div>
            )
          )}
        </form>
      )}

      <PriceHistory plan={plan} />
    </Card>
  )
}

interface PlanFieldsProps {
  plan: AdminPlan
  ids: string
  errorId: string
  fieldError: (name: string) => string | undefined
  firstField: RefObject<HTMLInputElement | null>
  disabled: boolean
}

/** The plan form's fields (uncontrolled: the form is read with FormData on submit). */
function PlanFields({ plan, ids, errorId, fieldError, firstField, disabled }: PlanFieldsProps) {
  const values = formValuesOf(plan)
  const described = (name: string) => (fieldError(name) ? errorId : undefined)
  const priceSuffix = plan.mode === 'subscription' ? `per ${plan.interval ?? 'month'}` : 'one-time'
  return (
    <fieldset className="catalogue-plan__fields" disabled={disabled}>
      <legend className="visually-hidden">{plan.name}</legend>
      <Field
        ref={firstField}
        label="Name"
        name="name"
        defaultValue={values.name}
        maxLength={NAME_MAX}
        required
        invalid={Boolean(fieldError('name'))}
        describedBy={described('name')}
      />
      <Field
        label="Price in euros"
        name="price"
        inputMode="decimal"
        autoComplete="off"
        defaultValue={values.price}
        hint={`${priceSuffix[0].toUpperCase()}${priceSuffix.slice(1)}, e.g. 29 or 29.90: the amount charged, as the public pages show it.`}
        invalid={Boolean(fieldError('price'))}
        describedBy={described('price')}
      />
      <div className={cx('field', fieldError('badge') && 'field--invalid')}>
        <label className="field__label" htmlFor={`${ids}-badge`}>
          Badge
        </label>
        <select id={`${ids}-badge`} name="badge" className="input" defaultValue={values.badge}>
          <option value="">None</option>
          {BADGES.map((badge) => (
            <option key={badge.value} value={badge.value}>
              {badge.label}
            </option>
          ))}
        </select>
      </div>
      <Field
        label="Delivery"
        name="delivery"
        defaultValue={values.delivery}
        maxLength={DELIVERY_MAX}
        hint='Shown as "Delivery in …", e.g. 24 hours. Empty: none.'
        invalid={Boolean(fieldError('delivery'))}
        describedBy={described('delivery')}
      />
      <Field
        label="Guarantee"
        name="guarantee"
        defaultValue={values.guarantee}
        maxLength={GUARANTEE_MAX}
        hint="e.g. 30-day money-back guarantee. Empty: none."
        invalid={Boolean(fieldError('guarantee'))}
        describedBy={described('guarantee')}
      />
      <div className={cx('field', fieldError('features') && 'field--invalid')}>
        <label className="field__label" htmlFor={`${ids}-features`}>
          Features
        </label>
        <textarea
          id={`${ids}-features`}
          name="features"
          className="input catalogue-plan__textarea"
          rows={5}
          defaultValue={values.features}
          aria-describedby={[`${ids}-features-hint`, described('features')].filter(Boolean).join(' ')}
          aria-invalid={fieldError('features') ? true : undefined}
        />
        <p id={`${ids}-features-hint`} className="field__hint">
          One per line, at most 20.
        </p>
      </div>
      <div className={cx('field', fieldError('description') && 'field--invalid')}>
        <label className="field__label" htmlFor={`${ids}-description`}>
          Description
        </label>
        <textarea
          id={`${ids}-description`}
          name="description"
          className="input catalogue-plan__textarea"
          rows={3}
          maxLength={DESCRIPTION_MAX}
          defaultValue={values.description}
          aria-describedby={described('description')}
          aria-invalid={fieldError('description') ? true : undefined}
        />
      </div>
    </fieldset>
  )
}

function PriceHistory({ plan }: { plan: AdminPlan }) {
  const count = plan.history.length
  if (count === 0) return <p className="catalogue-plan__history-none">No price changes recorded.</p>
  return (
    <details className="catalogue-plan__history">
      <summary>Price history ({count === 1 ? '1 change' : `${count} changes`})</summary>
      <div className="table-wrap">
        <table className="data-table catalogue-plan__history-table">
          <caption className="visually-hidden">Price history of {plan.name}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col" className="data-table__num">From</th>
              <th scope="col" className="data-table__num">To</th>
              <th scope="col">Changed by</th>
            </tr>
          </thead>
          <tbody>
            {plan.history.map((change) => (
              <tr key={`${change.changed_at}-${change.old_price}-${change.new_price}`}>
                <td data-label="When">
                  <time dateTime={change.changed_at}>{formatWhen(change.changed_at)}</time>
                </td>
                <td data-label="From" className="data-table__num">{money(change.old_price, change.currency)}</td>
                <td data-label="To" className="data-table__num">{money(change.new_price, change.currency)}</td>
                <td data-label="Changed by">{sourceText(change.source)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  )
}
