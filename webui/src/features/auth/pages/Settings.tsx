import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { useDashboardShell } from '../../../components/dashboard/shell-context'
import { Button, buttonClass } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { Field } from '../../../components/ui/Field'
import { Notice } from '../../../components/ui/Notice'
import { api } from '../../../lib/api-client'
import { useAuth } from '../../../lib/auth'
import {
  checkNewPassword,
  formValues,
  invalidProps,
  problemFromError,
  requireAll,
  type FormProblem,
} from '../../../lib/forms'

/** Busy flag, success note and error of one settings section. */
function useSectionState() {
  const [busy, setBusy] = useState(false)
  const [success, setSuccess] = useState<string | null>(null)
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null)
  const errorId = `${useId()}-error`
  /** Runs `action` with the busy flag on; its result (a message) becomes the success note. */
  const run = async (check: FormProblem | null, action: () => Promise<string | null>) => {
    setSuccess(null)
    if (check) {
      setFormProblem(check)
      return
    }
    setFormProblem(null)
    setBusy(true)
    try {
      const message = await action()
      setSuccess(message)
    } catch (err) {
      setFormProblem(problemFromError(err))
    } finally {
      setBusy(false)
    }
  }
  const flag = (name: string) => invalidProps(formProblem, name, errorId)
  return { busy, success, formProblem, errorId, run, flag, setSuccess, setFormProblem }
}

function SettingsSection({ id, title, text, children, tone }: { id: string; title: string; text: ReactNode; children: ReactNode; tone?: 'danger' }) {
  return (
    <Card className="dash-card settings-section">
      <section aria-labelledby={id}>
        <h2 id={id} className="settings-section__title">
          {title}
        </h2>
        <p className={tone === 'danger' ? 'settings-section__text settings-section__text--danger' : 'settings-section__text'}>{text}</p>
        {children}
      </section>
    </Card>
  )
}

function ChangeEmail() {
  const { user, applyUser } = useAuth()
  const state = useSectionState()

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const values = formValues(form, ['new_email', 'current_password'])
    void state.run(requireAll(values), async () => {
      const data = await api.post('/api/account/email', { ...values, new_email: values.new_email.trim() })
      applyUser(data.user)
      form.reset()
      return `Your e-mail address is now ${data.user.email}.`
    })
  }

  return (
    <SettingsSection id="settings-email" title="Change e-mail" text={<>You log in with <strong>{user?.email}</strong>. We send receipts and reset links there.</>}>
      <form className="form-stack" noValidate onSubmit={handleSubmit}>
        {state.formProblem && <ErrorBox id={state.errorId}>{state.formProblem.message}</ErrorBox>}
        <div className="form-grid-2">
          <Field
            label="New e-mail"
            type="email"
            name="new_email"
            autoComplete="email"
            inputMode="email"
            required
            {...state.flag('new_email')}
          />
          <Field
            label="Current password"
            type="password"
            name="current_password"
            autoComplete="current-password"
            required
            {...state.flag('current_password')}
          />
        </div>
        {state.success && <Notice>{state.success}</Notice>}
        <div className="form-actions">
          <Button type="submit" busy={state.busy}>
            Change e-mail
          </Button>
        </div>
      </form>
    </SettingsSection>
  )
}

function ChangePassword() {
  const state = useSectionState()

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const values = formValues(form, ['current_password', 'new_password', 'confirm_password'])
    const check =
      requireAll(values) ??
      checkNewPassword(values.new_password, values.confirm_password, { password: 'new_password', confirm: 'confirm_password' })
    void state.run(check, async () => {
      const data = await api.post('/api/account/password', values)
      form.reset()
      return data.message
    })
  }

  return (
    <SettingsSection id="settings-password" title="Change password" text="Other devices where you are logged in are signed out when you change it.">
      <form className="form-stack" noValidate onSubmit={handleSubmit}>
        {state.formProblem && <ErrorBox id={state.errorId}>{state.formProblem.message}</ErrorBox>}
        <Field label="Current password" type="password" name="current_password" autoComplete="current-password" required {...state.flag('current_password')} />
        <div className="form-grid-2">
          <Field label="New password" type="password" name="new_password" autoComplete="new-password" hint="At least 6 characters." required {...state.flag('new_password')} />
          <Field label="Confirm new password" type="password" name="confirm_password" autoComplete="new-password" required {...state.flag('confirm_password')} />
        </div>
        {state.success && <Notice>{state.success}</Notice>}
        <div className="form-actions">
          <Button type="submit" busy={state.busy}>
            Change password
          </Button>
        </div>
      </form>
    </SettingsSection>
  )
}

function YourData() {
  const { forgetUser } = useAuth()
  const { leave } = useDashboardShell()
  const state = useSectionState()
  const [confirming, setConfirming] = useState(false)
  const passwordRef = useRef<HTMLInputElement>(null)
  const startRef = useRef<HTMLButtonElement>(null)

  const startDelete = () => {
    setConfirming(true)
    // Focus the password once the confirmation step is in the DOM.
    requestAnimationFrame(() => passwordRef.current?.focus())
  }

  const cancel = () => {
    // The confirmation step leaves the DOM, and the password typed into it with it.
    setConfirming(false)
    state.setFormProblem(null)
    requestAnimationFrame(() => startRef.current?.focus())
  }

  const handleDelete = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const password = formValues(event.currentTarget, ['delete_current_password']).delete_current_password
    void state.run(requireAll({ current_password: password }), async () => {
      await api.post('/api/account/delete', { current_password: password })
      // The server ended the session and cleared the hint cookie; forget the user and go home.
      await leave(forgetUser)
      return null
    })
  }

  return (
    <SettingsSection id="settings-data" title="Your data" text="Download everything we store about you, or delete your account for good.">
      <div className="form-stack">
        <div className="settings-row">
          <div>
            <p className="settings-row__title">Export</p>
            <p className="settings-row__text">A JSON file with your profile, orders, websites and support requests.</p>
          </div>
          <a className={buttonClass({ variant: 'outline' })} href="/api/account/export" download>
            Download my data
          </a>
        </div>
        <div className="settings-row settings-row--danger">
          <div>
            <p className="settings-row__title">Delete account</p>
            <p className="settings-row__text">
              This removes your account and signs you out everywhere. It cannot be undone. A running subscription is
              cancelled first, at once, with our payment provider: nothing more is charged.
            </p>
          </div>
          {!confirming && (
            <Button ref={startRef} variant="danger" onClick={startDelete}>
              Delete my account
            </Button>
          )}
        </div>
        {confirming && (
          <form className="danger-zone form-stack" noValidate onSubmit={handleDelete}>
            <p className="danger-zone__title">Are you sure? Confirm with your password to delete your account for good.</p>
            <ul>
              <li>Your subscriptions are cancelled at our payment provider first, at once: nothing more is charged. If that fails, your account is kept and nothing changes.</li>
              <li>Work on your websites stops and they leave your account; payments already made are not refunded automatically (within the withdrawal period, use <a href="/withdraw">Withdraw from contract</a> first).</li>
              <li>Orders and invoices are kept for the accounts, without your name.</li>
            </ul>
            {state.formProblem && <ErrorBox id={state.errorId}>{state.formProblem.message}</ErrorBox>}
            <Field
              ref={passwordRef}
              label="Current password"
              type="password"
              name="delete_current_password"
              autoComplete="current-password"
              required
              {...state.flag('current_password')}
            />
            <div className="form-actions">
              <Button type="submit" variant="danger" busy={state.busy}>
                Delete my account permanently
              </Button>
              <Button variant="ghost" onClick={cancel} disabled={state.busy}>
                Cancel
              </Button>
            </div>
          </form>
        )}
      </div>
    </SettingsSection>
  )
}

export default function SettingsPage() {
  return (
    <div className="dash-page">
      <DashPageHeader heading="Settings" text="Change your e-mail and password, export your data or delete your account." />
      <div className="settings-stack">
        <ChangeEmail />
        <ChangePassword />
        <YourData />
      </div>
    </div>
  )
}
