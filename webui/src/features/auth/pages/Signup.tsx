import { useEffect, useId, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { Link } from '../../../lib/router'
import { AuthCard } from '../AuthCard'
import { Button } from '../../../components/ui/Button'
import { Checkbox } from '../../../components/ui/Checkbox'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { Field } from '../../../components/ui/Field'
import { useAuth } from '../../../lib/auth'
import {
  checkNewPassword,
  formValues,
  invalidProps,
  MSG_ACCEPT_TERMS,
  problem,
  problemFromError,
  requireAll,
  useHydrated,
  type FormProblem,
} from '../../../lib/forms'

export default function SignupPage() {
  const { user, signUp } = useAuth()
  const navigate = useNavigate()
  const hydrated = useHydrated()
  const errorId = `${useId()}-error`

  const [busy, setBusy] = useState(false)
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null)

  useEffect(() => {
    if (user) navigate('/dashboard', { replace: true })
  }, [user, navigate])

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const { terms, ...values } = formValues(event.currentTarget, [
      'first_name',
      'last_name',
      'email',
      'password',
      'confirm_password',
      'terms',
    ])
    const found =
      requireAll(values) ??
      checkNewPassword(values.password, values.confirm_password, { password: 'password', confirm: 'confirm_password' }) ??
      (terms ? null : problem(MSG_ACCEPT_TERMS, ['terms']))
    if (found) {
      setFormProblem(found)
      return
    }
    setFormProblem(null)
    setBusy(true)
    try {
      await signUp({ ...values, email: values.email.trim(), first_name: values.first_name.trim(), last_name: values.last_name.trim() })
    } catch (err) {
      setFormProblem(problemFromError(err))
      setBusy(false)
    }
  }

  const flag = (name: string) => invalidProps(formProblem, name, errorId)

  return (
    <AuthCard
      heading="Create your account."
      text="Sign up to order services and follow your websites in the dashboard."
      footer={
        <p>
          Already have an account? <Link to="/login">Log in</Link>
        </p>
      }
    >
      <form className="form-stack" method="post" noValidate onSubmit={handleSubmit}>
        {formProblem && <ErrorBox id={errorId}>{formProblem.message}</ErrorBox>}
        <div className="form-grid-2">
          <Field label="First name" name="first_name" autoComplete="given-name" required defaultValue="" {...flag('first_name')} />
          <Field label="Last name" name="last_name" autoComplete="family-name" required defaultValue="" {...flag('last_name')} />
        </div>
        <Field label="Email" type="email" name="email" autoComplete="email" inputMode="email" required defaultValue="" {...flag('email')} />
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          hint="At least 6 characters."
          required
          defaultValue=""
          {...flag('password')}
        />
        <Field
          label="Confirm password"
          type="password"
          name="confirm_password"
          autoComplete="new-password"
          required
          defaultValue=""
          {...flag('confirm_password')}
        />
        <Checkbox
          name="terms"
          required
          defaultChecked={false}
          label={
            <>
              I agree to the <Link to="/terms">Terms of Service</Link> and <Link to="/privacy">Privacy Policy</Link>
            </>
          }
          {...flag('terms')}
        />
        <Button type="submit" size="lg" block busy={busy} disabled={!hydrated}>
          Create account
        </Button>
      </form>
    </AuthCard>
  )
}
