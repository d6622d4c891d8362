"""What other modules may use of the audit log: `record` an admin action (inside the caller's
transaction, so the record and the change land together or not at all)."""

from __future__ import annotations

from agency.modules.audit.schemas import Actor
from agency.modules.audit.service import ACTIONS, record

__all__ = ["ACTIONS", "Actor", "record"]
