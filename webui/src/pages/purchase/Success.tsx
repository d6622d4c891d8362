export { SuccessPage as default } from '../../features/billing'
