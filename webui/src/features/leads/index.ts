export { DOMAIN_FIELD, EMAIL_FIELD, LeadForm, NAME_FIELD, NewsletterLine, type LeadField, type LeadSent } from './LeadForm'
export { default as LeadsPage } from './pages/Leads'
