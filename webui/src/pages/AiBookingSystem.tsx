import { PageIntro } from '../components/layout/PageIntro'

export default function AiBookingSystemPage() {
  return (
    <PageIntro
      heading="AI Booking System for Clinics"
      eyebrow="For clinics"
      text="Patients book, reschedule and get reminders around the clock, while your front desk focuses on the people in the room."
    />
  )
}
