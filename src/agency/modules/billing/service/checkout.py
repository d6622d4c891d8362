"""The purchase: a signed-out buyer's account first, then a Stripe Checkout Session.

The order of checks is the spec's: a package, the account fields (each with its own message, the
rules the web UI also checks when a field is left), a package that can be sold (before any
account is created), then the account, then an active subscription of that plan. The session
stores who buys (consumer or business), the terms version and a consumer's early-start consent.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from tortoise.exceptions import IntegrityError

from agency.core.errors import Conflict, ServiceUnavailable, ValidationFailed
from agency.modules.auth import api as auth_api
from agency.modules.auth.api import Account
from agency.modules.billing.clients import MSG_NOT_CONFIGURED, StripeGateway
from agency.modules.billing.models import ACTIVE_STATUSES, CheckoutSession, Customer, Subscription
from agency.modules.billing.schemas import CheckoutIn
from agency.modules.billing.service import order_terms
from agency.modules.catalogue import api as catalogue_api
from agency.modules.sites import api as sites_api

log = logging.getLogger(__name__)

MSG_SELECT_PACKAGE = "Please select a package"
MSG_REQUIRED = "Please fill in all required fields"
MSG_INVALID_PACKAGE = "Please select a valid package"
MSG_CHECKOUT_FAILED = "Failed to create checkout session"
MSG_CHECK_FIELDS = "Please correct the highlighted fields"
MSG_NAME_REQUIRED = "Please enter your full name"
MSG_EMAIL_REQUIRED = "Please enter your email address"
MSG_PASSWORD_REQUIRED = "Please enter a password"

SignIn = Callable[[Account], Awaitable[None]]
"""Starts the buyer's session; the web layer passes its own (it sets the cookie)."""


async def start_checkout(
    gateway: StripeGateway,
    data: CheckoutIn,
    *,
    buyer: Account | None,
    sign_in: SignIn,
    client_ip: str,
    public_url: str,
) -> str:
    """Sell `data.plan` to the signed-in `buyer`, or to a signed-out visitor, whose account is
    created (or, with the right password, used) and signed in with `sign_in` before paying.
    Returns the address of the Checkout Session to send the buyer to."""
    _check_consent(data)
    if buyer is None:
        _check_visitor_fields(data)
        await _plan_for_sale(gateway, data.plan)
        buyer = await auth_api.register_or_authenticate(
            full_name=data.full_name,
            email=data.email,
            password=data.password,
            client_ip=client_ip,
        )
        await sign_in(buyer)  # the buyer stays signed in even if the checkout below fails
    return await _create_session(gateway, buyer, data, public_url)


def field_problems(data: CheckoutIn) -> dict[str, str]:
    """A signed-out buyer's fields that break a rule, with the message for each: the full name,
    the e-mail (auth's rule), the password (auth's length rule), the optional domain."""
    problems: dict[str, str] = {}
    if not data.full_name.strip():
        problems["full_name"] = MSG_NAME_REQUIRED
    email = auth_api.normalise_email(data.email)
    if not email:
        problems["email"] = MSG_EMAIL_REQUIRED
    elif not auth_api.valid_email(email):
        problems["email"] = auth_api.MSG_EMAIL_INVALID
    if not data.password:
        problems["password"] = MSG_PASSWORD_REQUIRED
    else:
        problem = auth_api.password_problem(data.password)
        if problem:
            problems["password"] = problem
    if data.domain.strip():
        try:
            sites_api.clean_domain(data.domain)
        except ValidationFailed as refused:
            problems["domain"] = refused.message
    return problems


def _check_visitor_fields(data: CheckoutIn) -> None:
    """The spec's order for a signed-out buyer: a package, then the account fields, every
    field's problem at once (the overall message: the one problem, or what to do)."""
    if not data.plan.strip():
        raise ValidationFailed(MSG_SELECT_PACKAGE, fields={"plan": MSG_SELECT_PACKAGE})
    problems = field_problems(data)
    if not problems:
        return
    missing = {MSG_NAME_REQUIRED, MSG_EMAIL_REQUIRED, MSG_PASSWORD_REQUIRED}
    if any(message in missing for message in problems.values()):
        message = MSG_REQUIRED
    elif len(problems) == 1:
        message = next(iter(problems.values()))
    else:
        message = MSG_CHECK_FIELDS
    raise ValidationFailed(message, fields=problems)


def _check_consent(data: CheckoutIn) -> None:
    """A consumer's early-start consent must be to the text shown now (its version)."""
    if (
        data.buyer_type == order_terms.CONSUMER
        and data.early_start_consent
        and data.consent_version != order_terms.EARLY_START_CONSENT_VERSION
    ):
        raise ValidationFailed(
            order_terms.MSG_CONSENT_OUTDATED,
            code="consent_outdated",
            fields={"early_start_consent": order_terms.MSG_CONSENT_OUTDATED},
        )


async def _plan_for_sale(gateway: StripeGateway, plan_key: str) -> catalogue_api.PlanInfo:
    """The plan to sell, once we know it can be sold."""
    if not plan_key.strip():
        raise ValidationFailed(MSG_SELECT_PACKAGE, fields={"plan": MSG_SELECT_PACKAGE})
    plan = await catalogue_api.get_plan(plan_key.strip())
    if plan is None or not plan.active or not plan.checkout:
        raise ValidationFailed(MSG_INVALID_PACKAGE, fields={"plan": MSG_INVALID_PACKAGE})
    if not gateway.configured:
        raise ServiceUnavailable(MSG_NOT_CONFIGURED, code="payments_not_configured")
    if not plan.stripe_price_id:
        log.error("plan has no Stripe price: run `agency stripe sync`", extra={"plan": plan.key})
        raise ValidationFailed(MSG_CHECKOUT_FAILED, code="checkout_failed")
    return plan


async def _create_session(
    gateway: StripeGateway, account: Account, data: CheckoutIn, public_url: str
) -> str:
    """A Stripe Checkout Session for the plan; returns the address to send the buyer to."""
    plan = await _plan_for_sale(gateway, data.plan)
    domain = ""
    if data.domain.strip() and plan.takes_domain:
        domain = sites_api.clean_domain(data.domain)
    if plan.mode == "subscription" and await Subscription.exists(
        user_id=account.id, plan_key=plan.key, status__in=ACTIVE_STATUSES
    ):
        raise Conflict(
            f"You already have an active {plan.name} subscription. "
            "Manage it from your dashboard's billing page.",
            code="already_subscribed",
        )
    customer_id = await _customer_for(gateway, account)
    await Customer.filter(user_id=account.id).update(buyer_type=data.buyer_type)
    consented = data.buyer_type == order_terms.CONSUMER and data.early_start_consent
    consent_at = datetime.now(UTC) if consented else None
    consent_version = order_terms.EARLY_START_CONSENT_VERSION if consented else None
    metadata = {
        "plan": plan.key,
        "domain": domain,
        "user_id": str(account.id),
        "buyer_type": data.buyer_type,
        "early_start_consent": consent_version or "",
    }
    # `page` is where a cancelled checkout returns to: /ai-start or /start.
    cancel_url = (
        f"{public_url}/ai-start?canceled=true"
        if data.page == "ai-start"
        else f"{public_url}/start?canceled=true&type={plan.family}&plan={plan.key}"
    )
    params: dict[str, Any] = {
        "mode": plan.mode,
        "customer": customer_id,
        "client_reference_id": str(account.id),
        "line_items": [{"price": plan.stripe_price_id, "quantity": 1}],
        "success_url": f"{public_url}/success?session_id={{CHECKOUT_SESSION_ID}}",
        "cancel_url": cancel_url,
        "metadata": metadata,
    }
    if plan.mode == "subscription":
        params["subscription_data"] = {"metadata": metadata}
    else:
        params["payment_intent_data"] = {"metadata": metadata}
    try:
        session = await gateway.create_checkout_session(params)
    except Exception as exc:
        log.exception("checkout session failed", extra={"plan": plan.key})
        raise ValidationFailed(MSG_CHECKOUT_FAILED, code="checkout_failed") from exc
    await CheckoutSession.create(
        id=session["id"],
        user_id=account.id,
        plan_key=plan.key,
        domain=domain or None,
        mode=plan.mode,
        buyer_type=data.buyer_type,
        early_start_consent_version=consent_version,
        early_start_consent_at=consent_at,
        terms_version=order_terms.TERMS_VERSION,
    )
    return str(session["url"])


async def _customer_for(gateway: StripeGateway, account: Account) -> str:
    """The user's Stripe customer, created on their first checkout and reused after."""
    existing = await Customer.get_or_none(user_id=account.id)
    if existing is not None:
        return existing.stripe_customer_id
    customer_id = await gateway.create_customer(
        email=account.email, name=account.full_name or account.email, user_id=account.id
    )
    try:
        await Customer.create(user_id=account.id, stripe_customer_id=customer_id)
    except IntegrityError:
        # Another request of the same user won the race; use its customer.
        return (await Customer.get(user_id=account.id)).stripe_customer_id
    return customer_id
