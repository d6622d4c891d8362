import { useEffect, useId, useState, type FormEvent } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { Link } from '../../../lib/router'
import { AuthCard } from '../AuthCard'
import { Button } from '../../../components/ui/Button'
import { Checkbox } from '../../../components/ui/Checkbox'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { Field } from '../../../components/ui/Field'
import { safeReturnPath, useAuth } from '../../../lib/auth'
import { formValues, invalidProps, problemFromError, requireAll, useHydrated, type FormProblem } from '../../../lib/forms'

/** The page the dashboard sent the visitor here from (router state, else `?next=`), else /dashboard. */
function useReturnPath(): string {
  const location = useLocation()
  const fromState = safeReturnPath((location.state as { from?: unknown } | null)?.from)
  const fromQuery = safeReturnPath(new URLSearchParams(location.search).get('next'))
  return fromState ?? fromQuery ?? '/dashboard'
}

export default function LoginPage() {
  const { user, signIn } = useAuth()
  const navigate = useNavigate()
  const returnPath = useReturnPath()
  const hydrated = useHydrated()
  const errorId = `${useId()}-error`

  const [busy, setBusy] = useState(false)
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null)

  // Signed in already, or just now: go on to the dashboard (or the page first asked for).
  useEffect(() => {
    if (user) navigate(returnPath, { replace: true })
  }, [user, returnPath, navigate])

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const { email, password, remember } = formValues(event.currentTarget, ['email', 'password', 'remember'])
    const missing = requireAll({ email, password })
    if (missing) {
      setFormProblem(missing)
      return
    }
    setFormProblem(null)
    setBusy(true)
    try {
      await signIn(email.trim(), password, remember !== '')
    } catch (err) {
      setFormProblem(problemFromError(err))
      setBusy(false)
    }
  }

  return (
    <AuthCard
      heading="Welcome back."
      text="Log in with your e-mail and password to open your dashboard."
      footer={
        <p>
          New here? <Link to="/signup">Create your account</Link>
        </p>
      }
    >
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
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          defaultValue=""
          {...invalidProps(formProblem, 'password', errorId)}
        />
        <div className="form-row-between">
          <Checkbox label="Remember me" name="remember" defaultChecked={false} />
          <Link to="/forgot-password" className="form-link">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" size="lg" block busy={busy} disabled={!hydrated}>
          Log in
        </Button>
      </form>
    </AuthCard>
  )
}
