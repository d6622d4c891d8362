export { LeadsPage as default } from '../../features/leads'
