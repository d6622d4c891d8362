export { SupportPage as default } from '../features/support'
