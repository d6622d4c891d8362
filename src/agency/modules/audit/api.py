"""What other modules may use of the audit log: `record` an admin action (inside the caller's
transaction, so the record and the change land together or not at all), and read a page of it
(`list_entries`, for the admin route that a module above auth serves)."""

from __future__ import annotations

from agency.modules.audit.schemas import Actor, AuditFilter, AuditPage, AuditQuery
from agency.modules.audit.service import ACTIONS, list_entries, record

__all__ = ["ACTIONS", "Actor", "AuditFilter", "AuditPage", "AuditQuery", "list_entries", "record"]
