"""The audit log: who among the admins (or the command line) changed what and when, with the
values before and after: catalogue changes, website status changes, support replies, article
publishing, role changes, refunds and cancellations. Rows are kept for the retention setting
`retention_audit_days` and read on /dashboard/admin/audit and with `agency audit list`.

Other modules write and read it only through `agency.modules.audit.api`."""
