import { formatWhen, statusLabel, statusTone, type SupportRequest } from './support'
import { Badge } from '../../components/ui/Badge'
import { Card } from '../../components/ui/Card'

/** The customer's past requests, newest first: subject, status, website, their message and the agency's replies. */
export function SupportRequestList({ requests }: { requests: readonly SupportRequest[] }) {
  if (requests.length === 0) {
    return (
      <Card className="dash-card empty-state">
        <p className="empty-state__title">No support requests yet.</p>
        <p className="empty-state__text">When you send a request, it appears here with its status and our replies.</p>
      </Card>
    )
  }
  return (
    <ul className="support-list">
      {requests.map((request) => (
        <li key={request.id}>
          <Card className="dash-card support-request">
            <div className="support-request__head">
              <h3 className="support-request__subject">{request.subject}</h3>
              <Badge tone={statusTone(request.status)}>{statusLabel(request.status)}</Badge>
            </div>
            <p className="support-request__meta">
              Sent <time dateTime={request.created_at}>{formatWhen(request.created_at)}</time>
              {request.website_domain && <> · {request.website_domain}</>}
            </p>
            <p className="support-request__message">{request.message}</p>
            {request.replies.length > 0 && (
              <ol className="support-replies" aria-label="Replies from the agency">
                {request.replies.map((reply) => (
                  <li key={reply.id} className="support-reply">
                    <p className="support-reply__meta">
                      Reply from the agency, <time dateTime={reply.created_at}>{formatWhen(reply.created_at)}</time>
                    </p>
                    <p className="support-reply__body">{reply.body}</p>
                  </li>
                ))}
              </ol>
            )}
          </Card>
        </li>
      ))}
    </ul>
  )
}
