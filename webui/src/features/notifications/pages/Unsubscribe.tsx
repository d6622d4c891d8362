import { useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { AuthCard } from '../../auth'
import { Button, ButtonLink } from '../../../components/ui/Button'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { Notice } from '../../../components/ui/Notice'
import { ApiError, api, errorMessage } from '../../../lib/api-client'
import '../unsubscribe.css'

/** The server's own words for a token that is not ours (`agency.core.mail_web.MSG_INVALID`). */
export const MSG_INVALID = 'This unsubscribe link is not valid. Please use the link from the e-mail.'
const HEADING = 'Unsubscribe'

/**
 * The address an unsubscribe token carries (its first part: the address, base64url), or null
 * when it carries none. Only for showing: the server checks the token's signature.
 */
export function tokenAddress(token: string): string | null {
  const [body, signature] = token.split('.')
  if (!body || !signature || !/^[A-Za-z0-9_-]+$/.test(body)) return null
  try {
    const binary = atob(body.replace(/-/g, '+').replace(/_/g, '/'))
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0))
    const address = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return address.includes('@') ? address : null
  } catch {
    return null
  }
}

/**
 * /unsubscribe?token=... (the link at the foot of every report e-mail): asks before it stops
 * anything, since mail scanners open every link of a message; the click posts the token, and
 * the server stops every e-mail of ours that the recipient did not ask for.
 */
export default function UnsubscribePage() {
  const [params] = useSearchParams()
  const token = params.get('token')?.trim() ?? ''
  const address = tokenAddress(token)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<{ message: string; final: boolean } | null>(null)
  const [done, setDone] = useState<string | null>(null)

  if (!address) {
    return (
      <AuthCard heading={HEADING}>
        <div className="form-stack">
          <ErrorBox title="The link is incomplete.">{MSG_INVALID}</ErrorBox>
          <ButtonLink to="/" size="lg" block>
            Go to the home page
          </ButtonLink>
        </div>
      </AuthCard>
    )
  }

  if (done) {
    return (
      <AuthCard heading={HEADING}>
        <div className="form-stack">
          <Notice className="unsubscribe__done">Done. We will send no more e-mails to {done}.</Notice>
          <ButtonLink to="/" size="lg" block>
            Go to the home page
          </ButtonLink>
        </div>
      </AuthCard>
    )
  }

  const unsubscribe = async () => {
    setProblem(null)
    setBusy(true)
    try {
      const data = await api.post('/api/mail/unsubscribe', { token })
      setDone(data.address)
    } catch (err) {
      // A link the server refuses (400) stays refused; anything else (the network, a limit) may pass.
      const final = err instanceof ApiError && err.status === 400
      setProblem({ message: errorMessage(err), final })
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthCard
      heading={HEADING}
      text={
        <>
          Stop e-mails to <strong className="unsubscribe__address">{address}</strong>?
        </>
      }
    >
      <div className="form-stack">
        {problem && <ErrorBox>{problem.message}</ErrorBox>}
        {problem?.final ? (
          <ButtonLink to="/" size="lg" block>
            Go to the home page
          </ButtonLink>
        ) : (
          <>
            <p className="auth-card__muted">
              We will send no more reports or other e-mails you did not ask for to this address.
            </p>
            <Button size="lg" block busy={busy} onClick={unsubscribe}>
              Unsubscribe
            </Button>
          </>
        )}
      </div>
    </AuthCard>
  )
}
