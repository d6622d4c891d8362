export { InvoicesSection } from './InvoicesSection'
export { default as AdminVatPage } from './pages/AdminVat'
