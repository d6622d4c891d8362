import { PageIntro } from '../components/layout/PageIntro'

export default function RealEstateRebuildPage() {
  return (
    <PageIntro
      heading="Real Estate Website Rebuild"
      eyebrow="For real estate agents"
      text="A fast, modern website for your listings, live within 24 hours. See a free demo of your new site before you decide."
    />
  )
}
