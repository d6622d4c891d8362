import { useEffect } from 'react'
import { useNavigate } from 'react-router-dom'
import { PageIntro } from '../../../components/layout/PageIntro'
import { SupportForm } from '../SupportForm'
import { Card } from '../../../components/ui/Card'
import { Container } from '../../../components/ui/Section'
import { useAuth } from '../../../lib/auth'
import '../support.css'

export const DASHBOARD_SUPPORT = '/dashboard/support'

/**
 * /support (linked from /success): the request form for visitors (name, e-mail, subject,
 * message). A signed-in user is sent to the dashboard's form, where their requests are listed.
 */
export default function SupportPage() {
  const { user } = useAuth()
  const navigate = useNavigate()

  useEffect(() => {
    if (user) navigate(DASHBOARD_SUPPORT, { replace: true })
  }, [user, navigate])

  return (
    <>
      <PageIntro
        heading="Support"
        text="Questions about your website, plan or payment? Send us a message and we'll reply by e-mail."
      />
      <section className="support-page">
        <Container size="md">
          <Card className="support-page__card">
            <p className="support-page__intro">
              Already a customer? <a href="/login?next=/dashboard/support">Log in</a> to send a request about one of your
              websites and follow our replies in your dashboard.
            </p>
            <SupportForm visitor />
          </Card>
        </Container>
      </section>
    </>
  )
}
