import { useState } from 'react'
import { Field } from '../../components/ui/Field'
import { DEFAULT_HOURS, DEFAULT_RATE, MAX_HOURS, MAX_RATE, formatEuro, formatPercent, roiFromInputs } from './content-roi'

/** The plan the ROI is measured against, from the catalogue (the page passes it in). */
export interface RoiPlan {
  name: string
  /** Integer cents. */
  price: number
  /** The price as the page shows it, e.g. "€39/month". */
  priceLabel: string
  oneTime: boolean
}

/** ROI calculator of the content engine: hours and hourly value in, weekly/monthly value and ROI
 * out, the ROI measured against the real price of the plan the page sells (none while the
 * catalogue loads: no ROI yet). */
export function ContentRoiCalculator({ plan }: { plan: RoiPlan | undefined }) {
  const [hours, setHours] = useState(String(DEFAULT_HOURS))
  const [rate, setRate] = useState(String(DEFAULT_RATE))
  const state = roiFromInputs(hours, rate, plan ? plan.price / 100 : null)
  const show = (value: (r: NonNullable<typeof state.result>) => string) => (state.result ? value(state.result) : '–')
  const percent = (r: NonNullable<typeof state.result>) => (Number.isNaN(r.roiPercent) ? '–' : formatPercent(r.roiPercent))
  return (
    <div className="calc">
      <div className="calc__inputs" role="group" aria-label="Your content figures">
        <Field
          label="Hours you spend on content per week"
          type="number"
          inputMode="decimal"
          min={0}
          max={MAX_HOURS}
          step={0.5}
          value={hours}
          onChange={(e) => setHours(e.target.value)}
          error={state.hoursError}
          addon={
            <span className="calc__unit" aria-hidden="true">
              hours
            </span>
          }
        />
        <Field
          label="What an hour of your time is worth (€)"
          type="number"
          inputMode="decimal"
          min={0}
          max={MAX_RATE}
          step={5}
          value={rate}
          onChange={(e) => setRate(e.target.value)}
          error={state.rateError}
          addon={
            <span className="calc__unit" aria-hidden="true">
              € / hour
            </span>
          }
        />
        <p className="calc__note">
          How we calculate: weekly value = hours × hourly value; monthly value = weekly value × 4; ROI = monthly value
          measured against the price of {plan ? `${plan.name}, ${plan.priceLabel}` : 'your plan'}
          {plan?.oneTime ? ' (one-time, set against the first month)' : ''}.
        </p>
      </div>
      <div className="calc__results" aria-live="polite" aria-atomic="true">
        <dl className="calc__list">
          <div className="calc__result">
            <dt>Value per week</dt>
            <dd data-testid="roi-weekly">{show((r) => formatEuro(r.weekly))}</dd>
          </div>
          <div className="calc__result">
            <dt>Value per month</dt>
            <dd data-testid="roi-monthly">{show((r) => formatEuro(r.monthly))}</dd>
          </div>
          <div className="calc__result calc__result--saving">
            <dt>Return on investment (ROI)</dt>
            <dd data-testid="roi-percent">{show(percent)}</dd>
          </div>
        </dl>
        {!state.ok && <p className="ce-calc__invalid">Correct the highlighted figure to see your results.</p>}
      </div>
    </div>
  )
}
