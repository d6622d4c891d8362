import { PageIntro } from '../components/layout/PageIntro'

export default function CoachSpeedTestPage() {
  return (
    <PageIntro
      heading="Website Speed Test"
      eyebrow="For Coaches & Personal Trainers"
      text="Find out how fast your coaching or personal training website loads on a phone, and what costs you clients."
    />
  )
}
