export { AdminAuditPage as default } from '../../features/audit'
