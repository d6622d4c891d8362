import { PageIntro } from '../components/layout/PageIntro'

export default function SpeedTestPage() {
  return (
    <PageIntro
      heading="Website Speed Test"
      eyebrow="Free speed test"
      text="Enter your website and e-mail to get your mobile PageSpeed score, speed index and total blocking time."
    />
  )
}
