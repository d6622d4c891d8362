export { AdminContractsPage as default } from '../../features/contracts'
