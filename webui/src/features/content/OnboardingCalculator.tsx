import { useId, useState } from 'react'
import { formatCurrencyWhole, formatNumber } from '../../lib/money'

/** Share of manual onboarding work the automation takes over (stated on the page). */
export const AUTOMATION_SHARE = 0.7

export interface OnboardingCost {
  monthlyHours: number
  monthlyCost: number
  savedHours: number
  savedMonthly: number
  savedYearly: number
}

/** Manual onboarding time and cost per month, and what the automation saves. */
export function onboardingCost(clientsPerMonth: number, hoursPerClient: number, hourlyCost: number): OnboardingCost {
  const safe = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0)
  const monthlyHours = safe(clientsPerMonth) * safe(hoursPerClient)
  const monthlyCost = monthlyHours * safe(hourlyCost)
  const savedHours = monthlyHours * AUTOMATION_SHARE
  const savedMonthly = monthlyCost * AUTOMATION_SHARE
  return { monthlyHours, monthlyCost, savedHours, savedMonthly, savedYearly: savedMonthly * 12 }
}


export const formatHours = (hours: number) => `${formatNumber(hours, 1)} h`
export const formatEuros = (euros: number) => formatCurrencyWhole(Math.round(euros))

interface NumberInputProps {
  label: string
  value: string
  onChange: (value: string) => void
  min: number
  max: number
  step: number
  suffix: string
}

function NumberInput({ label, value, onChange, min, max, step, suffix }: NumberInputProps) {
  const id = useId()
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="field__control calc__control">
        <input
          id={id}
          className="input"
          type="number"
          inputMode="decimal"
          min={min}
          max={max}
          step={step}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={`${id}-unit`}
        />
        <span id={`${id}-unit`} className="calc__unit">
          {suffix}
        </span>
      </div>
    </div>
  )
}

/** Cost-of-manual-onboarding calculator with labelled inputs and live results. */
export function OnboardingCalculator() {
  const [clients, setClients] = useState('8')
  const [hours, setHours] = useState('5')
  const [rate, setRate] = useState('60')
  const result = onboardingCost(Number(clients), Number(hours), Number(rate))
  return (
    <div className="calc">
      <div className="calc__inputs" role="group" aria-label="Your onboarding figures">
        <NumberInput label="New clients per month" value={clients} onChange={setClients} min={0} max={1000} step={1} suffix="clients" />
        <NumberInput label="Hours of onboarding per client" value={hours} onChange={setHours} min={0} max={200} step={0.5} suffix="hours" />
        <NumberInput label="Hourly cost of your team (€)" value={rate} onChange={setRate} min={0} max={1000} step={1} suffix="€ / hour" />
        <p className="calc__note">
          Savings assume the automation takes over {Math.round(AUTOMATION_SHARE * 100)}% of the manual steps (forms, welcome
          e-mails, access requests and kick-off scheduling). Your own figures may differ.
        </p>
      </div>
      <div className="calc__results" aria-live="polite" aria-atomic="true">
        <dl className="calc__list">
          <div className="calc__result">
            <dt>Manual onboarding per month</dt>
            <dd data-testid="calc-hours">{formatHours(result.monthlyHours)}</dd>
          </div>
          <div className="calc__result">
            <dt>Cost of manual onboarding per month</dt>
            <dd data-testid="calc-cost">{formatEuros(result.monthlyCost)}</dd>
          </div>
          <div className="calc__result calc__result--saving">
            <dt>Time the automation saves per month</dt>
            <dd data-testid="calc-saved-hours">{formatHours(result.savedHours)}</dd>
          </div>
          <div className="calc__result calc__result--saving">
            <dt>Money saved per month</dt>
            <dd data-testid="calc-saved">{formatEuros(result.savedMonthly)}</dd>
          </div>
          <div className="calc__result calc__result--saving">
            <dt>Money saved per year</dt>
            <dd data-testid="calc-saved-year">{formatEuros(result.savedYearly)}</dd>
          </div>
        </dl>
      </div>
    </div>
  )
}
