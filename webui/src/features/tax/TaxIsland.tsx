/**
 * /start's tax part, rendered once the page has hydrated (it is not on the first load; its
 * place is reserved, so nothing moves): the buyer's country, a business's VAT ID checked when
 * the field is left, and the order's quote for the package, buyer type, country and VAT ID
 * (after a pause in the changes; the last figures stay while a new quote is on its way).
 */
import { useEffect, useRef, useState } from 'react'
import { checkVatId, fetchQuote, otherCountries, vatIdError, type Quote } from './checkout-tax'
import type { BuyerType, TaxDisplay } from './prices'
import { NO_VAT_ID, TaxFields, type VatIdState } from './TaxFields'

/** What the form needs to know from the tax part. */
export interface TaxState {
  country: string
  /** The VAT ID's status once checked ("valid", "invalid", "pending"), else null. */
  vatStatus: string | null
  /** The last quote answered (quote null: the request failed), for which package. */
  quoted: { plan: string; quote: Quote | null } | null
  quoting: boolean
}

export interface TaxIslandProps {
  tax: TaxDisplay
  buyer: BuyerType
  /** The package picked (no quote without one). */
  plan: string | null
  /** A cancelled checkout's country, applied once its option is there. */
  restoreCountry: string | null
  /** The server's message for the VAT ID (checkout refused it). */
  fieldError?: string
  onChange: (state: TaxState) => void
}

export function TaxIsland({ tax, buyer, plan, restoreCountry, fieldError, onChange }: TaxIslandProps) {
  const [others] = useState(otherCountries)
  const [country, setCountry] = useState(tax.vat_country)
  const [vat, setVat] = useState<VatIdState>(NO_VAT_ID)
  const typed = useRef('')
  const [quoted, setQuoted] = useState<TaxState['quoted']>(null)
  const [quoting, setQuoting] = useState(false)
  const wrapper = useRef<HTMLDivElement>(null)

  // A cancelled checkout's country.
  useEffect(() => {
    const select = wrapper.current?.querySelector('select')
    if (restoreCountry && select && [...select.options].some((option) => option.value === restoreCountry)) {
      select.value = restoreCountry
      setCountry(restoreCountry)
    }
  }, [restoreCountry])

  const vatId = buyer === 'business' ? vat.vatId : ''
  useEffect(() => {
    if (!plan) return undefined
    let live = true
    const timer = window.setTimeout(() => {
      setQuoting(true)
      fetchQuote({ plan, buyer_type: buyer, country, vat_id: vatId })
        .then(
          (quote) => live && setQuoted({ plan, quote }),
          () => live && setQuoted({ plan, quote: null }),
        )
        .finally(() => live && setQuoting(false))
    }, 300)
    return () => {
      live = false
      window.clearTimeout(timer)
    }
  }, [plan, buyer, country, vatId])

  useEffect(() => {
    onChange({ country, vatStatus: buyer === 'business' ? vat.status : null, quoted, quoting })
  }, [onChange, country, buyer, vat.status, quoted, quoting])

  /** The VAT ID field was left: the server checks its syntax, checksum and VIES. */
  const check = async (raw: string) => {
    const value = raw.trim()
    typed.current = value
    if (value === '') {
      setVat(NO_VAT_ID)
      return
    }
    if (value === vat.checked && !vat.busy) return
    setVat({ ...NO_VAT_ID, checked: value, busy: true })
    try {
      const answer = await checkVatId(value)
      if (typed.current !== value) return
      setVat({
        checked: value,
        status: answer.status,
        vatId: answer.vat_id,
        name: answer.name,
        message: answer.message,
        error: answer.status === 'invalid' ? answer.message : null,
        busy: false,
      })
    } catch (err) {
      if (typed.current === value) setVat({ ...NO_VAT_ID, checked: value, error: vatIdError(err) })
    }
  }

  return (
    <div ref={wrapper}>
      <TaxFields
        tax={tax}
        buyer={buyer}
        others={others}
        vat={fieldError && !vat.error ? { ...vat, error: fieldError } : vat}
        onCountry={setCountry}
        onVatId={(raw) => void check(raw)}
        onVatInput={() => {
          if (vat !== NO_VAT_ID) setVat(NO_VAT_ID)
        }}
      />
    </div>
  )
}
