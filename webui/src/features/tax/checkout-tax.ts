/**
 * /start's tax requests, loaded after the page hydrated (not needed for the first paint): the
 * VAT ID check (POST /api/tax/vat-id), the order's quote (POST /api/billing/quote) and the
 * names of the countries outside the EU.
 */
import { ApiError, request } from '../../lib/api-client'
import type { BuyerType } from './prices'

export interface VatIdAnswer {
  vat_id: string
  country: string
  status: 'valid' | 'invalid' | 'pending' | string
  name: string | null
  address: string | null
  checked_at: string
  message: string
}

export interface Quote {
  currency: string
  net: number
  vat: number
  gross: number
  rate: number
  kind: string
  country: string
  note: string
  vat_id_status: string | null
  calculated_at_payment: boolean
}

export interface QuoteRequest {
  plan: string
  buyer_type: BuyerType
  country: string
  vat_id: string
}

export const VAT_ID_PATH = '/api/tax/vat-id'
export const QUOTE_PATH = '/api/billing/quote'

/** The server's check of a VAT ID; a refused one throws ApiError (400, field `vat_id`). */
export function checkVatId(vatId: string): Promise<VatIdAnswer> {
  return request('POST', VAT_ID_PATH, { vat_id: vatId }) as Promise<VatIdAnswer>
}

/** The message for the field from a failed check. */
export function vatIdError(err: unknown): string {
  if (err instanceof ApiError) return err.fields?.vat_id ?? err.message
  return 'We could not check the VAT ID just now. Please try again.'
}

export function fetchQuote(body: QuoteRequest): Promise<Quote> {
  return request('POST', QUOTE_PATH, body) as Promise<Quote>
}

// ISO 3166 codes outside the EU (Babel's English territories, 2026).
const OTHER_CODES =
  'ADAEAFAGAIALAMAOAQARASAUAWAXAZBABBBDBFBHBIBJBLBMBNBOBQBRBSBTBVBWBYBZCACCCDCFCGCHCICKCLCMCNCOCRCUCVCWCXDJDMDODZECEGEHERETFJFKFMFOGAGBGDGEGFGGGHGIGLGMGNGPGQGSGTGUGWGYHKHMHNHTIDILIMINIOIQIRISJEJMJOJPKEKGKHKIKMKNKPKRKWKYKZLALBLCLILKLRLSLYMAMCMDMEMFMGMHMKMLMMMNMOMPMQMRMSMUMVMWMXMYMZNANCNENFNGNINONPNRNUNZOMPAPEPFPGPHPKPMPNPRPSPWPYQARERSRURWSASBSCSDSGSHSJSLSMSNSOSRSSSTSVSXSYSZTCTDTFTGTHTJTKTLTMTNTOTRTTTVTWTZUAUGUMUSUYUZVAVCVEVGVIVNVUWFWSYEYTZAZMZW'

/** The countries outside the EU, [code, English name], by name. */
export function otherCountries(): [string, string][] {
  let names: Intl.DisplayNames | null
  try {
    names = new Intl.DisplayNames(['en'], { type: 'region' })
  } catch {
    names = null
  }
  const list: [string, string][] = []
  for (let i = 0; i < OTHER_CODES.length; i += 2) {
    const code = OTHER_CODES.slice(i, i + 2)
    list.push([code, names?.of(code) ?? code])
  }
  return list.sort((a, b) => a[1].localeCompare(b[1], 'en'))
}
