"""The purchase: a signed-out buyer's account first, then a Stripe Checkout Session.

The order of checks is the spec's: a package, the account fields (each with its own message, the
rules the web UI also checks when a field is left), a package that can be sold, the buyer's
country and VAT ID (`buyer_tax`: syntax, then VIES; all before any account is created), then the
account, then an active subscription of that plan. The session stores who buys (consumer or
business), the terms version, a consumer's early-start consent, the country and the VAT ID.

The Checkout Session asks Stripe for what an invoice needs (eu-selling A1): the billing address
always, a tax ID field (offered, never required), the address and
name written back to the customer, Stripe Tax when the agency uses it (`stripe_tax`, never under
the small-business rule), and for one-time payments an invoice with the seller's details in its
footer. A business buyer's VAT ID is put on the Stripe customer before the session is created.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tortoise.exceptions import IntegrityError

from agency.core.errors import Conflict, ServiceUnavailable, ValidationFailed
from agency.modules.auth import api as auth_api
from agency.modules.auth.api import Account
from agency.modules.billing.clients import MSG_NOT_CONFIGURED, StripeGateway, TaxIdRefused
from agency.modules.billing.models import ACTIVE_STATUSES, CheckoutSession, Customer, Subscription
from agency.modules.billing.schemas import CheckoutIn
from agency.modules.billing.service import buyer_tax, effects, order_terms
from agency.modules.billing.service.buyer_tax import BuyerTax
from agency.modules.catalogue import api as catalogue_api
from agency.modules.sites import api as sites_api
from agency.modules.tax import api as tax_api

log = logging.getLogger(__name__)

MSG_SELECT_PACKAGE = "Please select a package"
MSG_REQUIRED = "Please fill in all required fields"
MSG_INVALID_PACKAGE = "Please select a valid package"
MSG_CHECKOUT_FAILED = "Failed to create checkout session"
MSG_CHECK_FIELDS = "Please correct the highlighted fields"
MSG_NAME_REQUIRED = "Please enter your full name"
MSG_EMAIL_REQUIRED = "Please enter your email address"
MSG_PASSWORD_REQUIRED = "Please enter a password"
SMALL_BUSINESS_NOTE = effects.SMALL_BUSINESS_NOTE
REVERSE_CHARGE_NOTE = "Reverse charge / Steuerschuldnerschaft des Leistungsempfängers."
STRIPE_FOOTER_MAX = 5000  # Stripe's limit on an invoice footer

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
    tax: tax_api.TaxSettings,
    seller_footer: str,
) -> str:
    """Sell `data.plan` to the signed-in `buyer`, or to a signed-out visitor, whose account is
    created (or, with the right password, used) and signed in with `sign_in` before paying.
    `tax`: the agency's VAT set-up; `seller_footer`: the seller's details for the invoice.
    Returns the address of the Checkout Session to send the buyer to."""
    _check_consent(data)
    who: BuyerTax | None = None
    if buyer is None:
        _check_visitor_fields(data)
        await _plan_for_sale(gateway, data.plan)
        who = await _buyer_tax(tax, data)
        buyer = await auth_api.register_or_authenticate(
            full_name=data.full_name,
            email=data.email,
            password=data.password,
            client_ip=client_ip,
        )
        await sign_in(buyer)  # the buyer stays signed in even if the checkout below fails
    session = SessionSetup(tax=tax, seller_footer=seller_footer, public_url=public_url)
    return await _create_session(gateway, buyer, data, session, who)


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


async def _buyer_tax(tax: tax_api.TaxSettings, data: CheckoutIn) -> BuyerTax:
    """The buyer's country, VAT ID (VIES: invalid is refused) and the VAT that applies."""
    return await buyer_tax.resolve(
        tax,
        buyer_type=data.buyer_type,
        country=data.country,
        vat_id=data.vat_id,
        refuse_invalid=True,
    )


@dataclass(frozen=True)
class SessionSetup:
    """What the Checkout Session is made with besides the buyer's choices."""

    tax: tax_api.TaxSettings
    seller_footer: str
    public_url: str


def invoice_footer(seller_footer: str, tax: tax_api.TaxSettings, who: BuyerTax) -> str:
    """The invoice's footer: the seller's details, the small-business rule's sentence, or the
    reverse charge with the buyer's VAT ID (the seller's is in the details)."""
    lines = [seller_footer.strip()] if seller_footer.strip() else []
    if tax.vat_mode == "small_business":
        lines.append(SMALL_BUSINESS_NOTE)
    elif who.treatment.kind == "reverse_charge" and who.vat_id:
        lines.append(f"{REVERSE_CHARGE_NOTE} VAT ID of the customer: {who.vat_id}")
    return "\n".join(lines)[:STRIPE_FOOTER_MAX]


def tax_params(
    mode: str, tax: tax_api.TaxSettings, footer: str, metadata: dict[str, str]
) -> dict[str, Any]:
    """The Checkout Session's tax and invoice parameters (eu-selling A1)."""
    # Offered, never required: a business without a VAT ID (a small business, a German one with
    # only a tax number) must still be able to buy; it is charged VAT like a consumer.
    collect_tax_id: dict[str, Any] = {"enabled": True}
    params: dict[str, Any] = {
        "automatic_tax": {"enabled": tax.stripe_tax and tax.vat_mode != "small_business"},
        "tax_id_collection": collect_tax_id,
        "billing_address_collection": "required",
        # We always pass our customer: Checkout writes the billing address and the (business)
        # name back to it, which Stripe needs for tax and the tax ID on an existing customer.
        "customer_update": {"address": "auto", "name": "auto"},
        # Stripe's page (and so its tax and address fields) in the buyer's browser language.
        "locale": "auto",
    }
    if mode == "payment":
        invoice_data: dict[str, Any] = {"metadata": metadata}
        if footer:
            invoice_data["footer"] = footer
        params["invoice_creation"] = {"enabled": True, "invoice_data": invoice_data}
    return params


async def _create_session(
    gateway: StripeGateway,
    account: Account,
    data: CheckoutIn,
    setup: SessionSetup,
    who: BuyerTax | None,
) -> str:
    """A Stripe Checkout Session for the plan; returns the address to send the buyer to."""
    public_url = setup.public_url
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
    if who is None:
        who = await _buyer_tax(setup.tax, data)
    customer_id = await _customer_for(gateway, account)
    await Customer.filter(user_id=account.id).update(buyer_type=data.buyer_type)
    footer = invoice_footer(setup.seller_footer, setup.tax, who)
    await _prepare_customer(gateway, customer_id, who, footer)
    consented = data.buyer_type == order_terms.CONSUMER and data.early_start_consent
    consent_at = datetime.now(UTC) if consented else None
    consent_version = order_terms.EARLY_START_CONSENT_VERSION if consented else None
    metadata = {
        "plan": plan.key,
        "domain": domain,
        "user_id": str(account.id),
        "buyer_type": data.buyer_type,
        "early_start_consent": consent_version or "",
        "country": who.country,
        "vat_id": who.vat_id or "",
        "vat_id_status": who.vat_id_status or "",
        "vat_kind": who.treatment.kind,
        "vat_rate": str(who.treatment.rate_bp),
        # Whether the price holds the VAT (gross catalogue prices): the owner's figures take the
        # VAT out of a gross amount Stripe Tax did not split (service.mrr, service.revenue).
        "tax_behavior": "inclusive" if setup.tax.prices_include_vat else "exclusive",
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
        **tax_params(plan.mode, setup.tax, footer, metadata),
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
        country=who.country,
        vat_id=who.vat_id,
        vat_id_status=who.vat_id_status,
    )
    return str(session["url"])


async def _prepare_customer(
    gateway: StripeGateway, customer_id: str, who: BuyerTax, footer: str
) -> None:
    """The customer's invoice footer (subscription invoices take it) and a business buyer's VAT
    ID, unless the customer has it already (Stripe verifies it and tells us by webhook)."""
    try:
        if footer:
            await gateway.set_invoice_footer(customer_id, footer)
        if who.vat_id is None:
            return
        existing = await gateway.customer_tax_ids(customer_id)
        if any(str(t.get("value", "")).upper() == who.vat_id for t in existing):
            return
        await gateway.create_tax_id(customer_id, type="eu_vat", value=who.vat_id)
    except TaxIdRefused as refused:
        log.warning("stripe refused a VAT ID", extra={"reason": str(refused)})
        message = tax_api.MSG_VAT_ID_INVALID
        raise ValidationFailed(message, fields={"vat_id": message}) from refused
    except Exception as exc:
        log.exception("preparing the stripe customer failed")
        raise ValidationFailed(MSG_CHECKOUT_FAILED, code="checkout_failed") from exc


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
