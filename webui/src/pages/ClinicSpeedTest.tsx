import { CalendarIcon } from '../components/icons/CalendarIcon'
import { PhoneIcon } from '../components/icons/PhoneIcon'
import { SearchIcon } from '../components/icons/SearchIcon'
import { SpeedTestPage } from '../features/speedtest'

/** /clinic-speed-test: the speed test for medical and healthcare websites. */
export default function ClinicSpeedTestPage() {
  return (
    <SpeedTestPage
      source="clinic-speed-test"
      badge="For Medical & Healthcare Websites"
      title="Is Your Practice Website Losing Patients?"
      lead="Patients look for a clinic on their phone, often in a hurry. Find out in about 25 seconds how fast your practice website loads for them."
      points={['Mobile PageSpeed score, speed index and blocking time', 'What slows your site down, in plain words', 'Full report by e-mail in about 60 seconds']}
      urlPlaceholder="yourpractice.com"
      why={{
        title: 'Patients do not wait for a slow page',
        text: 'When a page takes too long, a patient simply calls the next practice in the search results.',
        items: [
          { title: 'Fewer bookings', text: 'Every second a booking page takes to load loses patients who were ready to make an appointment.', Icon: CalendarIcon },
          { title: 'Found less often', text: 'Google favours fast pages in local search, where patients look for a clinic near them.', Icon: SearchIcon },
          { title: 'Calls you never get', text: 'Opening hours, address and phone number must appear at once, on any phone, on any connection.', Icon: PhoneIcon },
        ],
      }}
      closing={{
        title: 'A practice website that loads in a blink',
        text: 'We rebuild your clinic website with a 99/100 PageSpeed score, live within 24 hours, hosting included.',
      }}
    />
  )
}
