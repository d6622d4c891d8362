import { useId, useRef, useState, type FormEvent } from 'react'
import { formValues, problem, problemFromError, useHydrated, type FormProblem } from '../../lib/forms'
import { CheckIcon } from '../../components/icons/CheckIcon'
import { Button } from '../../components/ui/Button'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { Field } from '../../components/ui/Field'
import {
  cancel,
  checkCancellation,
  checkIdentification,
  checkWithdrawal,
  EMAIL_MAX,
  formatDay,
  formatDayTime,
  MSG_REASON,
  REASON_MAX,
  REFERENCE_MAX,
  withdraw,
  type CancellationKind,
  type CancellationPreview,
  type ContractKind,
  type Identification,
  type WithdrawalPreview,
} from './contracts'

type Preview = WithdrawalPreview | CancellationPreview
type Receipt = { message: string; when: string; what: string }

const TEXT: Record<ContractKind, { check: string; confirm: string; confirmHeading: string }> = {
  withdrawal: { check: 'Continue', confirm: 'Confirm withdrawal', confirmHeading: 'Confirm your withdrawal' },
  cancellation: { check: 'Continue', confirm: 'Cancel now', confirmHeading: 'Confirm your cancellation' },
}

/**
 * The two steps of /withdraw and /cancel: the order's e-mail address and its order number or
 * website domain, then a confirmation that says what happens and when; the receipt follows by
 * e-mail at once. Works without an account.
 */
export function ContractForm({ kind }: { kind: ContractKind }) {
  const id = useId()
  const errorId = `${id}-error`
  const hydrated = useHydrated()
  const [busy, setBusy] = useState(false)
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null)
  const [identified, setIdentified] = useState<{ values: Identification; preview: Preview } | null>(null)
  const [receipt, setReceipt] = useState<Receipt | null>(null)
  const [cancellationKind, setCancellationKind] = useState<CancellationKind>('ordinary')
  const headingRef = useRef<HTMLHeadingElement>(null)
  const reasonRef = useRef<HTMLTextAreaElement>(null)
  const text = TEXT[kind]
  const fieldError = (name: string) => formProblem?.fields[name] ?? null

  async function onCheck(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const values = formValues(event.currentTarget, ['email', 'reference'])
    const found = checkIdentification(values)
    setFormProblem(found)
    if (found) return
    setBusy(true)
    try {
      const preview = kind === 'withdrawal' ? await checkWithdrawal(values) : await checkCancellation(values)
      setIdentified({ values, preview })
      requestAnimationFrame(() => headingRef.current?.focus())
    } catch (err) {
      setFormProblem(problemFromError(err))
    } finally {
      setBusy(false)
    }
  }

  async function onConfirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy || !identified) return
    const reason = kind === 'cancellation' ? formValues(event.currentTarget, ['reason']).reason : ''
    if (kind === 'cancellation' && cancellationKind === 'extraordinary' && !reason.trim()) {
      setFormProblem(problem(MSG_REASON, ['reason']))
      reasonRef.current?.focus()
      return
    }
    setBusy(true)
    setFormProblem(null)
    try {
      if (kind === 'withdrawal') {
        const done = await withdraw(identified.values)
        setReceipt({
          message: done.message,
          when: formatDayTime(done.received_at),
          what: `Your withdrawal from order ${done.order_number} (${done.plan_name}) was received on`,
        })
      } else {
        const done = await cancel(identified.values, cancellationKind, reason)
        setReceipt({
          message: done.message,
          when: formatDayTime(done.requested_at),
          what:
            done.kind === 'extraordinary'
              ? `Your extraordinary cancellation of ${done.plan_name} was received on`
              : `Your ${done.plan_name} subscription ends on ${formatDay(done.ends_on)}. Cancelled on`,
        })
      }
    } catch (err) {
      setFormProblem(problemFromError(err))
    } finally {
      setBusy(false)
    }
  }

  if (receipt) {
    return (
      <div className="contract-form__done" role="status">
        <span className="contract-form__done-icon" aria-hidden="true">
          <CheckIcon size={28} />
        </span>
        <p className="contract-form__done-title">{receipt.message}</p>
        <p>
          {receipt.what} {receipt.when}.
        </p>
      </div>
    )
  }

  if (identified) {
    const { preview } = identified
    return (
      <form className="contract-form__confirm" onSubmit={onConfirm} noValidate aria-describedby={formProblem ? errorId : undefined}>
        <h2 ref={headingRef} tabIndex={-1} className="contract-form__heading">
          {text.confirmHeading}
        </h2>
        {formProblem && <ErrorBox id={errorId}>{formProblem.message}</ErrorBox>}
        <dl className="contract-form__facts">
          {'deadline' in preview ? (
            <>
              <dt>Order</dt>
              <dd>
                {preview.order_number} ({preview.plan_name})
              </dd>
              {preview.domain && (
                <>
                  <dt>Website</dt>
                  <dd>{preview.domain}</dd>
                </>
              )}
              <dt>Ordered on</dt>
              <dd>{formatDay(preview.ordered_on)}</dd>
              <dt>Withdrawal period ends</dt>
              <dd>{formatDay(preview.deadline)}</dd>
            </>
          ) : (
            <>
              <dt>Contract</dt>
              <dd>{preview.plan_name} subscription</dd>
              {preview.order_number && (
                <>
                  <dt>Order</dt>
                  <dd>{preview.order_number}</dd>
                </>
              )}
              {preview.domain && (
                <>
                  <dt>Website</dt>
                  <dd>{preview.domain}</dd>
                </>
              )}
              <dt>Ends on</dt>
              <dd>{cancellationKind === 'ordinary' ? formatDay(preview.ends_on) : 'As soon as possible, once we have checked the reason'}</dd>
            </>
          )}
        </dl>
        {!('deadline' in preview) && (
          <fieldset className="contract-form__kind">
            <legend className="field__label">Type of cancellation</legend>
            <label className="contract-form__choice">
              <input
                type="radio"
                name="kind"
                value="ordinary"
                checked={cancellationKind === 'ordinary'}
                onChange={() => setCancellationKind('ordinary')}
              />
              <span>Ordinary: at the end of the current billing period, on {formatDay(preview.ends_on)}</span>
            </label>
            <label className="contract-form__choice">
              <input
                type="radio"
                name="kind"
                value="extraordinary"
                checked={cancellationKind === 'extraordinary'}
                onChange={() => setCancellationKind('extraordinary')}
              />
              <span>Extraordinary: for good cause, as soon as possible</span>
            </label>
            {cancellationKind === 'extraordinary' && (
              <div className={formProblem?.fields.reason ? 'field field--invalid' : 'field'}>
                <label className="field__label" htmlFor={`${id}-reason`}>
                  Reason for the extraordinary cancellation
                </label>
                <textarea
                  ref={reasonRef}
                  id={`${id}-reason`}
                  name="reason"
                  className="input"
                  rows={4}
                  maxLength={REASON_MAX}
                  defaultValue=""
                  aria-invalid={formProblem?.fields.reason ? true : undefined}
                  aria-describedby={formProblem?.fields.reason ? `${id}-reason-error` : undefined}
                />
                {formProblem?.fields.reason && (
                  <p id={`${id}-reason-error`} className="field__error">
                    {formProblem.fields.reason}
                  </p>
                )}
              </div>
            )}
          </fieldset>
        )}
        <p className="contract-form__what">
          {'deadline' in preview
            ? 'Your withdrawal reaches us at once. We reimburse your payments within 14 days; if you asked us to start the work within the withdrawal period, an amount in proportion to the work done is deducted.'
            : cancellationKind === 'ordinary'
              ? `Your subscription stays active until ${formatDay(preview.ends_on)} and then ends; nothing more is charged.`
              : 'Your cancellation and its reason reach us at once; we check the reason and tell you when your contract ends.'}{' '}
          We e-mail you a receipt with the date and time at once.
        </p>
        <div className="contract-form__actions">
          <Button type="submit" variant="danger" busy={busy}>
            {text.confirm}
          </Button>
          <Button type="button" variant="outline" onClick={() => setIdentified(null)} disabled={busy}>
            Back
          </Button>
        </div>
      </form>
    )
  }

  return (
    <form className="contract-form form-stack" onSubmit={onCheck} noValidate aria-describedby={formProblem ? errorId : undefined}>
      {formProblem && <ErrorBox id={errorId}>{formProblem.message}</ErrorBox>}
      <Field
        name="email"
        type="email"
        label="E-mail address of the order"
        autoComplete="email"
        required
        maxLength={EMAIL_MAX}
        defaultValue=""
        error={fieldError('email')}
      />
      <Field
        name="reference"
        label="Order number or website domain"
        hint="For example AG-000042 (in your order confirmation) or example.com"
        required
        maxLength={REFERENCE_MAX}
        defaultValue=""
        error={fieldError('reference')}
      />
      <div>
        {/* Enabled once hydrated: a click before would submit the prerendered form natively,
            putting the e-mail into the address bar and the logs. */}
        <Button type="submit" busy={busy} disabled={!hydrated}>
          {text.check}
        </Button>
      </div>
    </form>
  )
}
