import { useId } from 'react'
import { Field } from '../../components/ui/Field'
import { EU_COUNTRY_NAMES } from './countries'
import type { BuyerType, TaxDisplay } from './prices'

/** Where a VAT ID check stands (the field's message comes from the server). */
export interface VatIdState {
  /** The value last checked, as typed. */
  checked: string
  status: string | null
  /** The normalised ID the server answered for (sent with the quote). */
  vatId: string
  name: string | null
  message: string | null
  error: string | null
  busy: boolean
}

export const NO_VAT_ID: VatIdState = { checked: '', status: null, vatId: '', name: null, message: null, error: null, busy: false }

export function countryName(code: string): string {
  return EU_COUNTRY_NAMES.find(([c]) => c === code)?.[1] ?? code
}

/** The VAT ID's line under the field: checking, "Valid: <name>", or the server's message. */
function vatIdLine(vat: VatIdState): string {
  if (vat.busy) return 'Checking your VAT ID…'
  if (vat.error) return ''
  if (vat.status === 'valid') return `Valid: ${vat.name ?? vat.vatId}`
  return vat.message ?? ''
}

/**
 * /start's country and, for business buyers, the optional VAT ID (checked when the field is
 * left). Uncontrolled like the rest of the form; the parent hears every change.
 */
export function TaxFields({
  tax,
  buyer,
  others,
  vat,
  onCountry,
  onVatId,
  onVatInput,
}: {
  tax: TaxDisplay
  buyer: BuyerType
  /** The countries outside the EU, once loaded (after hydration). */
  others: readonly (readonly [string, string])[]
  vat: VatIdState
  onCountry: (code: string) => void
  onVatId: (raw: string) => void
  onVatInput: () => void
}) {
  const id = useId()
  const eu = EU_COUNTRY_NAMES.some(([code]) => code === tax.vat_country)
  const line = vatIdLine(vat)
  return (
    <div className="purchase-tax">
      <div className="field">
        <label className="field__label" htmlFor={`${id}-country`}>
          Country
        </label>
        <div className="field__control">
          <select
            id={`${id}-country`}
            name="country"
            className="input purchase-tax__select"
            autoComplete="country"
            defaultValue={tax.vat_country}
            onChange={(event) => onCountry(event.currentTarget.value)}
          >
            {!eu && <option value={tax.vat_country}>{tax.vat_country}</option>}
            <optgroup label="EU countries">
              {EU_COUNTRY_NAMES.map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </optgroup>
            <optgroup label="Other countries">
              {others
                .filter(([code]) => code !== tax.vat_country)
                .map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
            </optgroup>
          </select>
        </div>
      </div>
      {buyer === 'business' && (
        <>
          <Field
            label={
              <>
                VAT ID <span className="field__optional">(optional)</span>
              </>
            }
            name="vat_id"
            autoComplete="off"
            spellCheck={false}
            placeholder={`${tax.vat_country === 'GR' ? 'EL' : tax.vat_country}123456789`}
            hint="EU businesses outside our country with a valid VAT ID pay no VAT (reverse charge)."
            defaultValue=""
            error={vat.error ?? undefined}
            describedBy={line ? `${id}-vat-status` : undefined}
            onBlur={(event) => onVatId(event.currentTarget.value)}
            onInput={onVatInput}
          />
          <p
            id={`${id}-vat-status`}
            className={`purchase-tax__status${vat.status === 'valid' && !vat.busy ? ' purchase-tax__status--valid' : ''}`}
            role="status"
          >
            {line}
          </p>
        </>
      )}
    </div>
  )
}
