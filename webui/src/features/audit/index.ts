export { default as AdminAuditPage } from './pages/AdminAudit'
