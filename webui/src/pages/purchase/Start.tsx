import { PageIntro } from '../../components/layout/PageIntro'

export default function StartPage() {
  return (
    <PageIntro
      heading="Choose Your Package"
      eyebrow="Get started"
      text="Pick a package, enter your details and continue to secure card checkout."
    />
  )
}
