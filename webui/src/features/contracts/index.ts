export { default as AdminContractsPage } from './pages/AdminContracts'
export { default as CancelPage } from './pages/Cancel'
export { default as WithdrawPage } from './pages/Withdraw'
