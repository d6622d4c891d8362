import { PageIntro } from '../../components/layout/PageIntro'

export default function FaqPage() {
  return (
    <PageIntro
      heading="Frequently Asked Questions"
      text="Answers to common questions about our websites, AI services, delivery times, payments and guarantees."
    />
  )
}
