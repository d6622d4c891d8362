import { PageIntro } from '../../components/layout/PageIntro'

export default function AboutPage() {
  return (
    <PageIntro
      heading="About agency"
      text="We are a small European digital agency. We build fast websites, AI automation and video content for small businesses, done for you."
    />
  )
}
