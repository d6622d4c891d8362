import { PageIntro } from '../components/layout/PageIntro'

export default function ClinicSpeedTestPage() {
  return (
    <PageIntro
      heading="Website Speed Test"
      eyebrow="For Medical & Healthcare Websites"
      text="Find out how fast your clinic or practice website loads on a phone, and what slows your patients down."
    />
  )
}
