import { ButtonLink } from '../ui/Button'
import { ErrorBox } from '../ui/ErrorBox'

export const MSG_ADMINS_ONLY = 'Only admins can open the article manager.'

/** Shown instead of an admin-only page (the article manager) to other users. */
export function AdminOnly() {
  return (
    <div className="dash-page">
      <header className="dash-page__header">
        <h1 className="dash-page__title">Access denied</h1>
      </header>
      <div className="dash-page__narrow form-stack">
        <ErrorBox>{MSG_ADMINS_ONLY}</ErrorBox>
        <div>
          <ButtonLink to="/dashboard" variant="outline">
            Back to the dashboard
          </ButtonLink>
        </div>
      </div>
    </div>
  )
}
