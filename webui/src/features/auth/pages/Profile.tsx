import { useId, useState, type FormEvent } from 'react'
import { Avatar } from '../../../components/dashboard/Avatar'
import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { Button } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { Field } from '../../../components/ui/Field'
import { Notice } from '../../../components/ui/Notice'
import { api } from '../../../lib/api-client'
import { useAuth } from '../../../lib/auth'
import { invalidProps, problemFromError, type FormProblem } from '../../../lib/forms'

export default function ProfilePage() {
  const { user, applyUser } = useAuth()
  const errorId = `${useId()}-error`
  const [values, setValues] = useState({
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    avatar_url: user?.avatar_url ?? '',
  })
  const [busy, setBusy] = useState(false)
  const [saved, setSaved] = useState(false)
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null)

  if (!user) return null // the dashboard shell only renders pages for a signed-in user

  const set = (name: keyof typeof values) => (event: { target: { value: string } }) => {
    setSaved(false)
    setValues((current) => ({ ...current, [name]: event.target.value }))
  }

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setFormProblem(null)
    setSaved(false)
    setBusy(true)
    try {
      const avatar = values.avatar_url.trim()
      const data = await api.patch('/api/account/profile', {
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        avatar_url: avatar === '' ? null : avatar,
      })
      applyUser(data.user)
      setSaved(true)
    } catch (err) {
      setFormProblem(problemFromError(err))
    } finally {
      setBusy(false)
    }
  }

  const fieldError = (name: string) => formProblem?.fields[name]
  // The red box repeats nothing already shown under a field.
  const boxMessage = formProblem && !Object.keys(formProblem.fields).some((name) => name in values) ? formProblem.message : null
  // The saved avatar only: loading each typed address would send requests to any host.
  const preview = { ...user, first_name: values.first_name }

  return (
    <div className="dash-page">
      <DashPageHeader heading="Profile" text="Your name and avatar, as shown in the dashboard." />
      <Card className="dash-card">
        <form className="form-stack" noValidate onSubmit={handleSubmit}>
          <div className="profile-preview">
            <Avatar user={preview} size="lg" />
            <div>
              <p className="profile-preview__name">{[values.first_name, values.last_name].filter((p) => p.trim()).join(' ') || user.email}</p>
              <p className="profile-preview__email">{user.email}</p>
            </div>
          </div>
          {boxMessage && <ErrorBox id={errorId}>{boxMessage}</ErrorBox>}
          <div className="form-grid-2">
            <Field label="First name" name="first_name" autoComplete="given-name" value={values.first_name} onChange={set('first_name')} error={fieldError('first_name')} />
            <Field label="Last name" name="last_name" autoComplete="family-name" value={values.last_name} onChange={set('last_name')} error={fieldError('last_name')} />
          </div>
          <Field
            label="Avatar URL"
            type="url"
            name="avatar_url"
            autoComplete="photo"
            inputMode="url"
            placeholder="https://example.com/me.jpg"
            hint="The address of a square image. Leave empty to show your initial."
            value={values.avatar_url}
            onChange={set('avatar_url')}
            error={fieldError('avatar_url')}
            {...(boxMessage ? invalidProps(formProblem, 'avatar_url', errorId) : {})}
          />
          {saved && <Notice>Profile saved.</Notice>}
          <div className="form-actions">
            <Button type="submit" busy={busy}>
              Save profile
            </Button>
          </div>
        </form>
      </Card>
    </div>
  )
}
