import { useId, useState, type FormEvent } from 'react'
import { Link } from '../../../lib/router'
import { AuthCard } from '../AuthCard'
import { Button, ButtonLink } from '../../../components/ui/Button'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { Field } from '../../../components/ui/Field'
import { Notice } from '../../../components/ui/Notice'
import { api } from '../../../lib/api-client'
import { formValues, invalidProps, problemFromError, requireAll, useHydrated, type FormProblem } from '../../../lib/forms'

export default function ForgotPasswordPage() {
  const hydrated = useHydrated()
  const errorId = `${useId()}-error`
  const [busy, setBusy] = useState(false)
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null)
  const [sent, setSent] = useState<string | null>(null)

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const { email } = formValues(event.currentTarget, ['email'])
    const missing = requireAll({ email })
    if (missing) {
      setFormProblem(missing)
      return
    }
    setFormProblem(null)
    setBusy(true)
    try {
      const data = await api.post('/api/auth/forgot-password', { email: email.trim() })
      setSent(data.message)
    } catch (err) {
      setFormProblem(problemFromError(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthCard
      heading="Reset your password"
      text={sent ? undefined : "Enter the e-mail of your account and we'll send you a single-use link to choose a new password."}
      footer={
        sent ? undefined : (
          <p>
            Remembered it? <Link to="/login">Back to login</Link>
          </p>
        )
      }
    >
      {sent ? (
        <div className="form-stack">
          <Notice>{sent}</Notice>
          <p className="auth-card__muted">The link works once and expires soon. Check your spam folder if nothing arrives.</p>
          <ButtonLink to="/login" size="lg" block>
            Back to login
          </ButtonLink>
        </div>
      ) : (
        <form className="form-stack" method="post" noValidate onSubmit={handleSubmit}>
          {formProblem && <ErrorBox id={errorId}>{formProblem.message}</ErrorBox>}
          <Field
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            required
            defaultValue=""
            {...invalidProps(formProblem, 'email', errorId)}
          />
          <Button type="submit" size="lg" block busy={busy} disabled={!hydrated}>
            Send reset link
          </Button>
        </form>
      )}
    </AuthCard>
  )
}
