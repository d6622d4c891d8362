import { HandshakeIcon } from '../components/icons/HandshakeIcon'
import { SearchIcon } from '../components/icons/SearchIcon'
import { UsersIcon } from '../components/icons/UsersIcon'
import { Claim } from '../lib/claims'
import { SpeedTestPage } from '../features/speedtest'

/** /speed-test: the generic speed test (the strict domain rule of spec §5). */
export default function SpeedTestPageRoute() {
  return (
    <SpeedTestPage
      source="speed-test"
      badge="Free, in about 25 seconds"
      title="Website Speed Test"
      lead="How fast is your website on a phone? Enter your domain and get your mobile PageSpeed score, speed index and total blocking time, with the full report in your inbox."
      points={['Measured on mobile, where most visitors arrive', 'Every figure explained in plain words', 'Full report by e-mail in about 60 seconds']}
      urlPlaceholder="yourwebsite.com"
      why={{
        title: 'A slow site costs you customers',
        text: (
          <>
            <Claim claim="slow_site_leave">{(share) => `${share} of buyers leave a site that loads slowly. `}</Claim>
            Every second counts, on every page.
          </>
        ),
        items: [
          { title: 'Visitors leave', text: 'A visitor who waits for a blank screen goes back to the search results and clicks your competitor.', Icon: UsersIcon },
          { title: 'Google notices', text: 'Page experience is part of how Google ranks pages. A fast site is easier to find.', Icon: SearchIcon },
          { title: 'Trust drops', text: 'A page that jumps and freezes while it loads looks broken, even when everything on it is right.', Icon: HandshakeIcon },
        ],
      }}
      closing={{
        title: 'Want a website that scores 99/100?',
        text: 'We rebuild your site with a 99/100 PageSpeed score, live within 24 hours, hosting included.',
      }}
    />
  )
}
