import { useId } from 'react'
import { ButtonLink } from '../../components/ui/Button'

/** Shown below 90: the 'Too Slow' warning and 'Fix My Website Now' to /start. */
export function TooSlowPanel({ score }: { score: number }) {
  const id = useId()
  return (
    <div className="too-slow" role="group" aria-labelledby={`${id}-title`}>
      <span className="too-slow__sign" aria-hidden="true">
        !
      </span>
      <div className="too-slow__body">
        <h3 id={`${id}-title`} className="too-slow__title">
          Too Slow
        </h3>
        <p className="too-slow__text">
          A score of {score} means visitors wait for your page, and many leave before it appears. We rebuild your website
          with a 99/100 PageSpeed score, live within 24 hours, hosting included.
        </p>
        <ButtonLink to="/start" size="lg" className="too-slow__action">
          Fix My Website Now
        </ButtonLink>
      </div>
    </div>
  )
}

/** Shown at 90 and above: no warning, an honest note and a quiet link to /start. */
export function FastPanel() {
  return (
    <div className="fast-panel">
      <p>
        Your website is fast. Keep an eye on it after each change: new images, plugins and scripts are what slow a site down
        over time.
      </p>
      <ButtonLink to="/start" variant="outline">
        See Our Website Plans
      </ButtonLink>
    </div>
  )
}
