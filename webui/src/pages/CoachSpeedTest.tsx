import { CalendarIcon } from '../components/icons/CalendarIcon'
import { SearchIcon } from '../components/icons/SearchIcon'
import { UsersIcon } from '../components/icons/UsersIcon'
import { SpeedTestPage } from '../features/speedtest'

/** /coach-speed-test: the speed test for coaches and personal trainers. */
export default function CoachSpeedTestPage() {
  return (
    <SpeedTestPage
      source="coach-speed-test"
      badge="For Coaches & Personal Trainers"
      title="Is a Slow Website Costing You Clients?"
      lead="Your next client finds you on their phone, between two other things. Find out in about 25 seconds how fast your coaching website loads for them."
      points={['Mobile PageSpeed score, speed index and blocking time', 'What slows your site down, in plain words', 'Full report by e-mail in about 60 seconds']}
      urlPlaceholder="yourcoaching.com"
      why={{
        title: 'First impressions happen on a phone',
        text: 'People who click your link from social media or an ad leave within seconds when the page is blank.',
        items: [
          { title: 'Fewer discovery calls', text: 'A slow booking page loses the people who were ready to book a first session.', Icon: CalendarIcon },
          { title: 'Ads that cost more', text: 'You pay for every click, even when the visitor leaves before your page appears.', Icon: UsersIcon },
          { title: 'Harder to find', text: 'Google favours fast pages, so a slow site sinks below other coaches and trainers near you.', Icon: SearchIcon },
        ],
      }}
      closing={{
        title: 'A coaching website as fit as your clients',
        text: 'We rebuild your website with a 99/100 PageSpeed score, live within 24 hours, hosting included.',
      }}
    />
  )
}
