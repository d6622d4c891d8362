export { AdminVatPage as default } from '../../features/invoices'
