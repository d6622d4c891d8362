import { useId, useRef, useState, type FormEvent } from 'react'
import { formValues, problemFromError, type FormProblem } from '../../lib/forms'
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
  REFERENCE_MAX,
  withdraw,
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
  const [busy, setBusy] = useState(false)
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null)
  const [identified, setIdentified] = useState<{ values: Identification; preview: Preview } | null>(null)
  const [receipt, setReceipt] = useState<Receipt | null>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)
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

  async function onConfirm() {
    if (busy || !identified) return
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
        const done = await cancel(identified.values)
        setReceipt({
          message: done.message,
          when: formatDayTime(done.requested_at),
          what: `Your ${done.plan_name} subscription ends on ${formatDay(done.ends_on)}. Cancelled on`,
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
      <div className="contract-form__confirm">
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
              <dt>Type</dt>
              <dd>Ordinary cancellation at the end of the current billing period</dd>
              <dt>Ends on</dt>
              <dd>{formatDay(preview.ends_on)}</dd>
            </>
          )}
        </dl>
        <p className="contract-form__what">
          {'deadline' in preview
            ? 'Your withdrawal reaches us at once. We reimburse your payments within 14 days; if you asked us to start the work within the withdrawal period, an amount in proportion to the work done is deducted.'
            : `Your subscription stays active until ${formatDay(preview.ends_on)} and then ends; nothing more is charged.`}{' '}
          We e-mail you a receipt with the date and time at once.
        </p>
        <div className="contract-form__actions">
          <Button type="button" variant="danger" busy={busy} onClick={onConfirm}>
            {text.confirm}
          </Button>
          <Button type="button" variant="outline" onClick={() => setIdentified(null)} disabled={busy}>
            Back
          </Button>
        </div>
      </div>
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
        <Button type="submit" busy={busy}>
          {text.check}
        </Button>
      </div>
    </form>
  )
}
