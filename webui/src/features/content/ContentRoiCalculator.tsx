import { useState } from 'react'
import { Field } from '../../components/ui/Field'
import {
  DEFAULT_HOURS,
  DEFAULT_RATE,
  MAX_HOURS,
  MAX_RATE,
  ROI_COST_BASIS,
  formatEuro,
  formatPercent,
  roiFromInputs,
} from './content-roi'

/** ROI calculator of the content engine: hours and hourly value in, weekly/monthly value and ROI out. */
export function ContentRoiCalculator() {
  const [hours, setHours] = useState(String(DEFAULT_HOURS))
  const [rate, setRate] = useState(String(DEFAULT_RATE))
  const state = roiFromInputs(hours, rate)
  const show = (value: (r: NonNullable<typeof state.result>) => string) => (state.result ? value(state.result) : '–')
  return (
    <div className="calc">
      <form className="calc__inputs" onSubmit={(e) => e.preventDefault()} aria-label="Your content figures" noValidate>
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
          measured against a monthly cost basis of {formatEuro(ROI_COST_BASIS)} for running your content engine.
        </p>
      </form>
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
            <dd data-testid="roi-percent">{show((r) => formatPercent(r.roiPercent))}</dd>
          </div>
        </dl>
        {!state.ok && <p className="ce-calc__invalid">Correct the highlighted figure to see your results.</p>}
      </div>
    </div>
  )
}
