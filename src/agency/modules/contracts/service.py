"""Withdraw and cancel without an account: the person names the contract with the order's
e-mail address and its order number or website domain; a first call shows what will happen,
the second does it, e-mails the receipt at once and keeps the record for the admins.

A stranger learns nothing from a wrong e-mail or number but one neutral answer, and every call
counts against a per-address rate limit."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from tortoise.transactions import in_transaction

from agency.core import mail, ratelimit
from agency.core.errors import NotFound, ValidationFailed
from agency.core.paths import PACKAGE_DIR
from agency.core.ratelimit import Limit
from agency.core.settings import Settings
from agency.core.sql import fits_int_id
from agency.core.text import bare_host, valid_email
from agency.modules.audit import api as audit_api
from agency.modules.auth import api as auth_api
from agency.modules.billing import api as billing_api
from agency.modules.contracts.models import (
    EXTRAORDINARY,
    HANDLED,
    ORDINARY,
    RECEIVED,
    Cancellation,
    Withdrawal,
)
from agency.modules.contracts.schemas import (
    AdminCancellationOut,
    AdminContracts,
    AdminWithdrawalOut,
    CancellationPreview,
    CancellationReceipt,
    WithdrawalPreview,
    WithdrawalReceipt,
)
from agency.modules.legal import api as legal_api

log = logging.getLogger(__name__)

MSG_EMAIL = "Please enter the e-mail address you ordered with"
MSG_EMAIL_INVALID = "Please enter a valid email address"
MSG_REFERENCE = "Please enter your order number (for example AG-000042) or your website's domain"
MSG_REFERENCE_INVALID = (
    "This is neither an order number (for example AG-000042) nor a domain (example.com)"
)
MSG_NOT_FOUND = (
    "We could not find a contract for these details. Please check the e-mail address and the "
    "order number or domain, or write to us: we will help."
)
MSG_BUSINESS = (
    "This order was placed as a business. The right of withdrawal is for consumers only; to end "
    "a subscription, use Cancel contracts here."
)
MSG_PERIOD_OVER = "The withdrawal period of order {number} ended on {deadline}."
MSG_ALREADY_WITHDRAWN = "You withdrew from order {number} on {day}; we e-mailed you the receipt."
MSG_NO_SUBSCRIPTION = (
    "Order {number} is not a subscription, so there is nothing to cancel. To undo the order, use "
    "Withdraw from contract while the withdrawal period lasts."
)
MSG_ALREADY_ENDING = "This subscription is already cancelled: it ends on {day}."
MSG_ALREADY_ENDED = "This subscription has already ended."
MSG_REASON = "Please give the reason for the extraordinary cancellation"
WITHDRAWN = "Your withdrawal has reached us. We have e-mailed you a receipt."
CANCELLED = "Your cancellation is confirmed. We have e-mailed you a confirmation."
REQUESTED = (
    "Your extraordinary cancellation has reached us. We have e-mailed you a receipt and will "
    "answer you shortly."
)

# Both pages, every call (the check and the confirmation) from one client address.
CALLS_PER_ADDRESS = Limit("contracts-ip", limit=20, window=60 * 60, per_address=True)
ADMIN_LIST_MAX = 500
ORDER_ID_MAX = 2**31 - 1


@dataclass(frozen=True)
class Reference:
    """What the person typed to name the contract: an order id or a website's domain."""

    kind: Literal["order", "domain"]
    value: int | str


def parse_reference(text: str) -> Reference | None:
    """An order number ("AG-000042", "ag 42", "42") or a domain however typed
    ("https://www.Example.com/"), else None."""
    order_id = billing_api.parse_order_number(text)
    if order_id is not None:
        return Reference("order", order_id) if order_id <= ORDER_ID_MAX else None
    host = bare_host(text)
    return Reference("domain", host) if host else None


def identification(email: str, reference: str) -> tuple[str, Reference]:
    """The cleaned e-mail and reference, or every problem at once (400)."""
    problems: dict[str, str] = {}
    address = email.strip().lower()
    if not address:
        problems["email"] = MSG_EMAIL
    elif not valid_email(address):
        problems["email"] = MSG_EMAIL_INVALID
    parsed = parse_reference(reference) if reference.strip() else None
    if not reference.strip():
        problems["reference"] = MSG_REFERENCE
    elif parsed is None:
        problems["reference"] = MSG_REFERENCE_INVALID
    if problems or parsed is None:
        raise ValidationFailed(next(iter(problems.values())), fields=problems)
    return address, parsed


def deadline_of(ordered_at: datetime) -> date:
    """The last day of the withdrawal period: 14 days after the day the contract was made (the
    day itself does not count, § 187 (1) BGB)."""
    return ordered_at.astimezone(UTC).date() + timedelta(days=billing_api.WITHDRAWAL_DAYS)


async def _orders(email: str, reference: Reference) -> list[billing_api.ContractOrder]:
    """The orders these details name, newest first: none unless the e-mail is the account's."""
    account = await auth_api.get_account_by_email(email)
    if account is None:
        return []
    if reference.kind == "order":
        order = await billing_api.find_order(account.id, int(reference.value))
        return [order] if order else []
    return await billing_api.orders_for_domain(account.id, str(reference.value))


async def _limit(client_ip: str) -> None:
    await ratelimit.enforce(CALLS_PER_ADDRESS, client_ip)


# --- withdrawal ------------------------------------------------------------------------------


async def _withdrawable(
    email: str, reference: str, today: date
) -> tuple[str, billing_api.ContractOrder]:
    address, parsed = identification(email, reference)
    orders = await _orders(address, parsed)
    if not orders:
        raise NotFound(MSG_NOT_FOUND, code="no_matching_contract")
    # A domain may name several orders: the newest a consumer may still withdraw from.
    problem = ""
    for order in orders:
        if order.buyer_type != "consumer":
            problem = problem or MSG_BUSINESS
            continue
        done = await Withdrawal.filter(order_id=order.id).first()
        if done is not None:
            day = billing_api.long_date(done.received_at)
            problem = problem or MSG_ALREADY_WITHDRAWN.format(number=order.number, day=day)
            continue
        deadline = deadline_of(order.order_date)
        if today > deadline:
            over = _day(deadline)
            problem = problem or MSG_PERIOD_OVER.format(number=order.number, deadline=over)
            continue
        return address, order
    raise ValidationFailed(problem, code="no_right_of_withdrawal")


def _withdrawal_preview(order: billing_api.ContractOrder) -> WithdrawalPreview:
    return WithdrawalPreview(
        order_number=order.number,
        plan_name=order.plan_name,
        domain=order.domain,
        ordered_on=order.order_date.astimezone(UTC).date(),
        deadline=deadline_of(order.order_date),
    )


async def check_withdrawal(email: str, reference: str, *, client_ip: str) -> WithdrawalPreview:
    """What withdrawing from the contract these details name would do (nothing is stored)."""
    await _limit(client_ip)
    _, order = await _withdrawable(email, reference, datetime.now(UTC).date())
    return _withdrawal_preview(order)


async def withdraw(
    email: str, reference: str, *, client_ip: str, settings: Settings
) -> WithdrawalReceipt:
    """Record the withdrawal, e-mail the receipt to the customer and the request to the agency."""
    await _limit(client_ip)
    address, order = await _withdrawable(email, reference, datetime.now(UTC).date())
    preview = _withdrawal_preview(order)
    row = await Withdrawal.create(
        order_id=order.id,
        user_id=order.user_id,
        email=address,
        order_number=order.number,
        plan_name=order.plan_name[:200],
        domain=order.domain,
        ordered_at=order.order_date,
        deadline=preview.deadline,
    )
    context: dict[str, Any] = {
        "order_number": order.number,
        "plan_name": order.plan_name,
        "ordered_on": billing_api.long_date(order.order_date),
        "received_at": billing_api.date_time(row.received_at),
        "deadline": _day(preview.deadline),
        "domain": order.domain or "",
        "email": address,
    }
    await mail.send_mail(address, "withdrawal_receipt", context)
    if settings.agency_email:
        await mail.send_mail(
            settings.agency_email, "withdrawal_request", {**context, "domain": order.domain or "-"}
        )
    log.info("withdrawal received", extra={"order_id": order.id})
    return WithdrawalReceipt(**preview.model_dump(), received_at=row.received_at, message=WITHDRAWN)


def _day(value: date) -> str:
    return billing_api.long_date(datetime(value.year, value.month, value.day, tzinfo=UTC))


# --- cancellation ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Cancellable:
    email: str
    user_id: int
    order: billing_api.ContractOrder
    subscription: billing_api.ContractSubscription


async def _cancellable(email: str, reference: str) -> _Cancellable:
    address, parsed = identification(email, reference)
    orders = await _orders(address, parsed)
    if not orders:
        raise NotFound(MSG_NOT_FOUND, code="no_matching_contract")
    problem = ""
    for order in orders:
        if not order.subscription_id:
            problem = problem or MSG_NO_SUBSCRIPTION.format(number=order.number)
            continue
        subscription = await billing_api.get_subscription(order.subscription_id)
        if subscription is None or subscription.user_id != order.user_id:
            problem = problem or MSG_NOT_FOUND
            continue
        if billing_api.is_running(subscription):
            return _Cancellable(address, order.user_id, order, subscription)
        if subscription.cancel_at_period_end and subscription.current_period_end:
            day = billing_api.long_date(subscription.current_period_end)
            problem = problem or MSG_ALREADY_ENDING.format(day=day)
        else:
            problem = problem or MSG_ALREADY_ENDED
    raise ValidationFailed(problem, code="nothing_to_cancel")


def _cancellation_preview(found: _Cancellable) -> CancellationPreview:
    end = found.subscription.current_period_end
    return CancellationPreview(
        plan_name=found.subscription.plan_name,
        order_number=found.order.number,
        domain=found.order.domain,
        ends_on=end.astimezone(UTC).date() if end else None,
    )


async def check_cancellation(email: str, reference: str, *, client_ip: str) -> CancellationPreview:
    """What cancelling the subscription these details name would do (nothing changes)."""
    await _limit(client_ip)
    return _cancellation_preview(await _cancellable(email, reference))


async def cancel(
    email: str,
    reference: str,
    *,
    kind: str = ORDINARY,
    reason: str = "",
    client_ip: str,
    settings: Settings,
) -> CancellationReceipt:
    """Cancel the subscription these details name.

    Ordinary: set to end with its period at Stripe; billing e-mails the confirmation at once
    (and only once, however the webhook that follows arrives). Extraordinary (for good cause):
    recorded with its reason and e-mailed to the agency, which decides; the customer gets the
    receipt at once, and the subscription stays as it is until then."""
    await _limit(client_ip)
    if kind == EXTRAORDINARY and not reason.strip():
        raise ValidationFailed(MSG_REASON, fields={"reason": MSG_REASON})
    found = await _cancellable(email, reference)
    if kind == EXTRAORDINARY:
        return await _request_extraordinary(found, reason.strip(), settings)
    requested_at = datetime.now(UTC)
    subscription = await billing_api.cancel_at_period_end(
        found.subscription.id, requested_at=requested_at
    )
    end = subscription.current_period_end
    await Cancellation.create(
        subscription_id=subscription.id,
        order_id=found.order.id,
        user_id=found.user_id,
        email=found.email,
        plan_name=subscription.plan_name[:200],
        ends_at=end,
    )
    preview = _cancellation_preview(
        _Cancellable(found.email, found.user_id, found.order, subscription)
    )
    return CancellationReceipt(
        **preview.model_dump(), kind=ORDINARY, requested_at=requested_at, message=CANCELLED
    )


async def _request_extraordinary(
    found: _Cancellable, reason: str, settings: Settings
) -> CancellationReceipt:
    row = await Cancellation.create(
        subscription_id=found.subscription.id,
        order_id=found.order.id,
        user_id=found.user_id,
        email=found.email,
        plan_name=found.subscription.plan_name[:200],
        ends_at=None,
        kind=EXTRAORDINARY,
        reason=reason,
        status=RECEIVED,
    )
    context: dict[str, Any] = {
        "plan_name": found.subscription.plan_name,
        "order_number": found.order.number,
        "domain": found.order.domain or "",
        "email": found.email,
        "requested_at": billing_api.date_time(row.requested_at),
        "reason": reason,
    }
    await mail.send_mail(found.email, "cancellation_request_receipt", context)
    if settings.agency_email:
        await mail.send_mail(settings.agency_email, "cancellation_request", context)
    log.info("extraordinary cancellation received", extra={"order_id": found.order.id})
    preview = _cancellation_preview(found)
    return CancellationReceipt(
        **{**preview.model_dump(), "ends_on": None},
        kind=EXTRAORDINARY,
        requested_at=row.requested_at,
        message=REQUESTED,
    )


# --- the /withdrawal page -----------------------------------------------------------------

WITHDRAWAL_PAGE_TITLE = "Withdrawal information"
_PAGE_INTRO = (
    "<h1>Withdrawal information</h1>\n"
    "<p>If you order as a consumer, you have the following right of withdrawal. To withdraw "
    'online, use <a href="/withdraw">Withdraw from contract</a>; to end a subscription, use '
    '<a href="/cancel">Cancel contracts here</a>.</p>\n'
)


# The e-mail templates' folder, read as core.mail reads it (HTML escaped, undefined refused).
_partials = Environment(
    loader=FileSystemLoader(PACKAGE_DIR / "templates" / "email"),
    autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
    undefined=StrictUndefined,
)


def withdrawal_information_html(settings: Settings) -> str:
    """The /withdrawal page: the statutory withdrawal information and the model withdrawal
    form, from the very partial the order confirmation e-mail includes, with the seller's
    details."""
    context = {"seller": legal_api.placeholders(settings), "site_url": "", "web": True}
    return _PAGE_INTRO + _partials.get_template("_withdrawal_information.html").render(context)


# --- the admins' lists, the user's data ------------------------------------------------------


async def admin_lists() -> AdminContracts:
    """Withdrawals (newest first) and cancellations: through the cancel page, and the
    subscriptions set to end another way (the customer portal)."""
    withdrawals = await Withdrawal.all().order_by("-received_at", "-id").limit(ADMIN_LIST_MAX)
    requests = await Cancellation.all().order_by("-requested_at", "-id").limit(ADMIN_LIST_MAX)
    ending = await billing_api.cancelled_subscriptions()
    status = {s.id: s for s in ending}
    cancellations = []
    seen = set()
    for row in requests:
        if row.kind == ORDINARY:
            seen.add(row.subscription_id)
        now = status.get(row.subscription_id)
        cancellations.append(
            AdminCancellationOut(
                subscription_id=row.subscription_id,
                plan_name=row.plan_name,
                email=row.email,
                status=(row.status if row.kind == EXTRAORDINARY else None)
                or (now.status if now else "ended"),
                ends_at=row.ends_at,
                requested_at=row.requested_at,
                kind=row.kind,
                reason=row.reason,
                via="cancel_page",
            )
        )
    others = [s for s in ending if s.id not in seen]
    accounts = await auth_api.accounts_by_ids([s.user_id for s in others])
    for subscription in others:
        account = accounts.get(subscription.user_id)
        cancellations.append(
            AdminCancellationOut(
                subscription_id=subscription.id,
                plan_name=subscription.plan_name,
                email=account.email if account else None,
                status=subscription.status,
                ends_at=subscription.current_period_end,
                requested_at=subscription.cancellation_confirmed_at,
                kind=ORDINARY,
                reason=None,
                via="dashboard",
            )
        )
    return AdminContracts(
        withdrawals=[_admin_withdrawal(w) for w in withdrawals],
        cancellations=cancellations,
    )


MSG_WITHDRAWAL_NOT_FOUND = "Withdrawal not found."


async def mark_withdrawal_handled(
    withdrawal_id: int, *, actor: audit_api.Actor
) -> AdminWithdrawalOut:
    """An admin has dealt with the withdrawal (reimbursed); again is harmless. The change is
    written to the audit log by `actor` in the same transaction."""
    row = await Withdrawal.get_or_none(id=withdrawal_id) if fits_int_id(withdrawal_id) else None
    if row is None:
        raise NotFound(MSG_WITHDRAWAL_NOT_FOUND, code="withdrawal_not_found")
    if row.status != HANDLED:
        async with in_transaction():
            won = await Withdrawal.filter(id=row.id, status=row.status).update(status=HANDLED)
            if won:
                await audit_api.record(
                    actor,
                    "contract.withdrawal_handled",
                    target_type="withdrawal",
                    target_id=row.id,
                    target_label=f"Order {row.order_number}",
                    before={"status": row.status},
                    after={"status": HANDLED},
                )
        row = await Withdrawal.get(id=row.id)
    return _admin_withdrawal(row)


def _admin_withdrawal(w: Withdrawal) -> AdminWithdrawalOut:
    return AdminWithdrawalOut(
        id=w.id,
        order_number=w.order_number,
        plan_name=w.plan_name,
        email=w.email,
        domain=w.domain,
        ordered_at=w.ordered_at,
        deadline=w.deadline,
        received_at=w.received_at,
        status=w.status,
    )


async def export_user(user_id: int) -> Any:
    withdrawals = await Withdrawal.filter(user_id=user_id).order_by("received_at")
    cancellations = await Cancellation.filter(user_id=user_id).order_by("requested_at")
    return {
        "withdrawals": [
            {"order": w.order_number, "received_at": w.received_at.isoformat()} for w in withdrawals
        ],
        "cancellations": [
            {"plan": c.plan_name, "requested_at": c.requested_at.isoformat()} for c in cancellations
        ],
    }


async def erase_user(user_id: int) -> None:
    """Kept as the agency's record of what the customer declared (evidence), unlinked."""
    await Withdrawal.filter(user_id=user_id).update(user_id=0)
    await Cancellation.filter(user_id=user_id).update(user_id=0)
