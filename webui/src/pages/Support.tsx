import { PageIntro } from '../components/layout/PageIntro'

export default function SupportPage() {
  return (
    <PageIntro
      heading="Support"
      text="Questions about your website, plan or payment? Send us a message and we'll reply by e-mail."
    />
  )
}
