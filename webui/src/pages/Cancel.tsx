export { CancelPage as default } from '../features/contracts'
