import { ButtonLink } from '../ui/Button'
import { ErrorBox } from '../ui/ErrorBox'

export const MSG_ADMINS_ONLY = 'Only admins can open this page.'

/**
 * Shown instead of an admin-only page to other users; `message` says what the page is
 * (from the page's entry in `adminLinks`).
 */
export function AdminOnly({ message = MSG_ADMINS_ONLY }: { message?: string }) {
  return (
    <div className="dash-page">
      <header className="dash-page__header">
        <h1 className="dash-page__title">Access denied</h1>
      </header>
      <div className="dash-page__narrow form-stack">
        <ErrorBox>{message}</ErrorBox>
        <div>
          <ButtonLink to="/dashboard" variant="outline">
            Back to the dashboard
          </ButtonLink>
        </div>
      </div>
    </div>
  )
}
