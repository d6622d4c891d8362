import { PageIntro } from '../../components/layout/PageIntro'

export default function AiStartPage() {
  return (
    <PageIntro
      heading="Start Your 24h Website Rebuild"
      text="Pick your website package and continue to secure card checkout. Your new site goes live within 24 hours."
    />
  )
}
