"""Withdraw from contract and Cancel contracts here (public, no account), and the admins' list."""

from __future__ import annotations

from quart import Blueprint
from quart_schema import validate_request, validate_response

from agency.core.web import app_settings
from agency.modules.auth import web as auth_web
from agency.modules.contracts import service
from agency.modules.contracts.schemas import (
    AdminContracts,
    AdminWithdrawalOut,
    CancellationIn,
    CancellationPreview,
    CancellationReceipt,
    IdentifyIn,
    WithdrawalPreview,
    WithdrawalReceipt,
)

blueprint = Blueprint("contracts", __name__)


@blueprint.post("/api/contracts/withdrawal/check")
@validate_request(IdentifyIn)
@validate_response(WithdrawalPreview, 200)
async def post_withdrawal_check(data: IdentifyIn) -> WithdrawalPreview:
    """What withdrawing from the order these details name would do; 404 with one neutral
    message when they name none (rate-limited per client address)."""
    return await service.check_withdrawal(
        data.email, data.reference, client_ip=auth_web.client_ip()
    )


@blueprint.post("/api/contracts/withdrawal")
@validate_request(IdentifyIn)
@validate_response(WithdrawalReceipt, 201)
async def post_withdrawal(data: IdentifyIn) -> tuple[WithdrawalReceipt, int]:
    """Withdraw from the order: recorded, the receipt e-mailed at once, the agency told."""
    receipt = await service.withdraw(
        data.email, data.reference, client_ip=auth_web.client_ip(), settings=app_settings()
    )
    return receipt, 201


@blueprint.post("/api/contracts/cancellation/check")
@validate_request(IdentifyIn)
@validate_response(CancellationPreview, 200)
async def post_cancellation_check(data: IdentifyIn) -> CancellationPreview:
    """What cancelling the subscription these details name would do (when it ends)."""
    return await service.check_cancellation(
        data.email, data.reference, client_ip=auth_web.client_ip()
    )


@blueprint.post("/api/contracts/cancellation")
@validate_request(CancellationIn)
@validate_response(CancellationReceipt, 201)
async def post_cancellation(data: CancellationIn) -> tuple[CancellationReceipt, int]:
    """Cancel the subscription: ordinary, at the end of its period (at Stripe, confirmed by
    e-mail), or extraordinary with a reason (a request the agency decides on; receipt by
    e-mail)."""
    receipt = await service.cancel(
        data.email,
        data.reference,
        kind=data.kind,
        reason=data.reason,
        client_ip=auth_web.client_ip(),
        settings=app_settings(),
    )
    return receipt, 201


@blueprint.get("/api/admin/contracts")
@auth_web.admin_required
@validate_response(AdminContracts, 200)
async def get_admin_contracts() -> AdminContracts:
    """Withdrawals and cancellations, newest first (admins only)."""
    return await service.admin_lists()


@blueprint.post("/api/admin/contracts/withdrawals/<int:withdrawal_id>/handled")
@auth_web.admin_required
@validate_response(AdminWithdrawalOut, 200)
async def post_admin_withdrawal_handled(withdrawal_id: int) -> AdminWithdrawalOut:
    """Mark a withdrawal handled (reimbursed) (admins only)."""
    return await service.mark_withdrawal_handled(withdrawal_id, actor=await auth_web.audit_actor())
