import { useId, useState, type FormEvent } from 'react'
import { useSearchParams } from 'react-router-dom'
import { Link } from '../../../lib/router'
import { AuthCard } from '../AuthCard'
import { Button, ButtonLink } from '../../../components/ui/Button'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { Field } from '../../../components/ui/Field'
import { Notice } from '../../../components/ui/Notice'
import { api } from '../../../lib/api-client'
import { checkNewPassword, formValues, invalidProps, problemFromError, requireAll, type FormProblem } from '../../../lib/forms'

const MSG_MISSING_TOKEN =
  'This page only works from the link in your password reset e-mail, and this address has no reset code in it.'

export default function ResetPasswordPage() {
  const [params] = useSearchParams()
  const token = params.get('token')?.trim() ?? ''
  const errorId = `${useId()}-error`
  const [busy, setBusy] = useState(false)
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null)
  const [done, setDone] = useState<string | null>(null)

  if (!token) {
    return (
      <AuthCard heading="Choose a new password">
        <div className="form-stack">
          <ErrorBox title="The reset link is incomplete.">{MSG_MISSING_TOKEN}</ErrorBox>
          <p className="auth-card__muted">Request a new link and open it from the e-mail we send you.</p>
          <ButtonLink to="/forgot-password" size="lg" block>
            Request a new link
          </ButtonLink>
        </div>
      </AuthCard>
    )
  }

  if (done) {
    return (
      <AuthCard heading="Choose a new password">
        <div className="form-stack">
          <Notice>{done}</Notice>
          <ButtonLink to="/login" size="lg" block>
            Log in
          </ButtonLink>
        </div>
      </AuthCard>
    )
  }

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const values = formValues(event.currentTarget, ['password', 'confirm_password'])
    const found =
      requireAll(values) ??
      checkNewPassword(values.password, values.confirm_password, { password: 'password', confirm: 'confirm_password' })
    if (found) {
      setFormProblem(found)
      return
    }
    setFormProblem(null)
    setBusy(true)
    try {
      const data = await api.post('/api/auth/reset-password', { token, ...values })
      setDone(data.message)
    } catch (err) {
      setFormProblem(problemFromError(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthCard
      heading="Choose a new password"
      text="Pick a new password for your account. It must be at least 6 characters long."
      footer={
        <p>
          Link expired? <Link to="/forgot-password">Request a new one</Link>
        </p>
      }
    >
      <form className="form-stack" method="post" noValidate onSubmit={handleSubmit}>
        {formProblem && <ErrorBox id={errorId}>{formProblem.message}</ErrorBox>}
        <Field
          label="New password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          defaultValue=""
          {...invalidProps(formProblem, 'password', errorId)}
        />
        <Field
          label="Confirm new password"
          type="password"
          name="confirm_password"
          autoComplete="new-password"
          required
          defaultValue=""
          {...invalidProps(formProblem, 'confirm_password', errorId)}
        />
        <Button type="submit" size="lg" block busy={busy}>
          Set new password
        </Button>
      </form>
    </AuthCard>
  )
}
