export { WithdrawPage as default } from '../features/contracts'
