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
import { formValues, invalidProps, problemFromError, type FormProblem } from '../../../lib/forms'

/** The profile form's fields. */
const PROFILE_FIELDS = ['first_name', 'last_name', 'avatar_url'] as const

export default function ProfilePage() {
  const { user, applyUser } = useAuth()
  const errorId = `${useId()}-error`
  // The name as typed so far, for the preview only: the inputs hold the form's values.
  const [typedName, setTypedName] = useState<{ first_name: string; last_name: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const [saved, setSaved] = useState(false)
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null)

  if (!user) return null // the dashboard shell only renders pages for a signed-in user

  const handleInput = (event: FormEvent<HTMLFormElement>) => {
    setSaved(false)
    setTypedName(formValues(event.currentTarget, ['first_name', 'last_name']))
  }

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const values = formValues(event.currentTarget, PROFILE_FIELDS)
    // Admins only: the bio under the blog articles they write.
    const bio = new FormData(event.currentTarget).get('bio')
    setFormProblem(null)
    setSaved(false)
    setBusy(true)
    try {
      const avatar = values.avatar_url.trim()
      const data = await api.patch('/api/account/profile', {
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        avatar_url: avatar === '' ? null : avatar,
        ...(typeof bio === 'string' ? { bio } : {}),
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
  const boxMessage =
    formProblem && !Object.keys(formProblem.fields).some((name) => (PROFILE_FIELDS as readonly string[]).includes(name)) ? formProblem.message : null
  const name = typedName ?? { first_name: user.first_name ?? '', last_name: user.last_name ?? '' }
  // The saved avatar only: loading each typed address would send requests to any host.
  const preview = { ...user, first_name: name.first_name }

  return (
    <div className="dash-page">
      <DashPageHeader heading="Profile" text="Your name and avatar, as shown in the dashboard." />
      <Card className="dash-card">
        <form className="form-stack" noValidate onSubmit={handleSubmit} onInput={handleInput}>
          <div className="profile-preview">
            <Avatar user={preview} size="lg" />
            <div>
              <p className="profile-preview__name">{[name.first_name, name.last_name].filter((p) => p.trim()).join(' ') || user.email}</p>
              <p className="profile-preview__email">{user.email}</p>
            </div>
          </div>
          {boxMessage && <ErrorBox id={errorId}>{boxMessage}</ErrorBox>}
          <div className="form-grid-2">
            <Field label="First name" name="first_name" autoComplete="given-name" defaultValue={user.first_name ?? ''} error={fieldError('first_name')} />
            <Field label="Last name" name="last_name" autoComplete="family-name" defaultValue={user.last_name ?? ''} error={fieldError('last_name')} />
          </div>
          <Field
            label="Avatar URL"
            type="url"
            name="avatar_url"
            autoComplete="photo"
            inputMode="url"
            placeholder="https://example.com/me.jpg"
            hint="The address of a square image. Leave empty to show your initial."
            defaultValue={user.avatar_url ?? ''}
            error={fieldError('avatar_url')}
            {...(boxMessage ? invalidProps(formProblem, 'avatar_url', errorId) : {})}
          />
          {user.role === 'admin' && (
            <Field
              label="Short bio"
              name="bio"
              maxLength={280}
              hint="Shown with your name under the blog articles you write (up to 280 characters)."
              defaultValue={user.bio ?? ''}
              error={fieldError('bio')}
            />
          )}
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
