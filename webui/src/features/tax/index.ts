export { usePrices, isBuyerType, rememberBuyerType, rememberedBuyerType, useBuyerType, useMoneyLocale, type BuyerType, type Prices, type TaxDisplay } from './prices'
export { DEFAULT_TAX, SMALL_BUSINESS_NOTE, defaultBuyer, taxOf, priceView, quoteLine, rateText, savePercent, split, treatment, type Amounts, type PriceView, type Treatment } from './tax'
export { NO_VAT_ID, TaxFields, countryName, type VatIdState } from './TaxFields'
export type { Quote, QuoteRequest, VatIdAnswer } from './checkout-tax'
export type { TaxState } from './TaxIsland'
/** /start's tax requests (VAT ID check, quote, other countries), loaded when needed. */
export const taxRequests = () => import('./checkout-tax')
/** /start's country, VAT ID and quote, rendered once the page has hydrated. */
export const loadTaxIsland = () => import('./TaxIsland')
