"""What the audit module contributes to the program (see `agency.core.modules.Module`).

No blueprint: the module sits below auth (auth records role changes), so it cannot use auth's
admin guard; `GET /api/admin/audit` is served by auth's blueprint with `audit.api`."""

from agency.core.modules import Module
from agency.modules.audit import models, service
from agency.modules.audit.settings import AuditSettings

MODULE = Module(
    name="audit",
    settings=AuditSettings,
    models=models,
    retention=service.prune,
)
