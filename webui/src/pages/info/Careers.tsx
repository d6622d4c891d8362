import { PageIntro } from '../../components/layout/PageIntro'

export default function CareersPage() {
  return (
    <PageIntro
      heading="Careers"
      text="We work as a small remote team across Europe. This page lists the roles we are hiring for and how to apply."
    />
  )
}
