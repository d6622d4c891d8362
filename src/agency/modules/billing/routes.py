"""Checkout, the payment webhook and the billing reads of the dashboard."""

from __future__ import annotations

import logging
from typing import Any, cast

from quart import Blueprint, Quart, Response, current_app, request
from quart.blueprints import BlueprintSetupState
from quart_schema import document_response, validate_request, validate_response

from agency.core import metrics
from agency.core.errors import ValidationFailed
from agency.core.modules import HtmlFilter
from agency.core.web import app_settings, settings_of
from agency.core.web.answers import CachedAnswers
from agency.modules.auth import web as auth_web
from agency.modules.billing import clients
from agency.modules.billing.clients import StripeGateway
from agency.modules.billing.schemas import (
    BuyerOut,
    CheckoutIn,
    CheckoutStatus,
    OrderList,
    QuoteIn,
    QuoteOut,
    SubscriptionEnvelope,
    UrlOut,
    WebhookOut,
)
from agency.modules.billing.service import (
    catalogue_admin,
    checkout,
    payments_notice,
    quotes,
    reads,
    webhooks,
)
from agency.modules.billing.settings import BillingSettings
from agency.modules.catalogue.api import AdminCatalogueOut, PlanChangesIn, PlanUpdateOut
from agency.modules.legal import api as legal_api
from agency.modules.tax import api as tax_api

blueprint = Blueprint("billing", __name__)
GATEWAY = "billing.gateway"
WEBHOOK_PATH = "/api/billing/webhook"
log = logging.getLogger(__name__)


@blueprint.record_once
def install_gateway(state: BlueprintSetupState) -> None:
    app = cast(Quart, state.app)
    settings = settings_of(BillingSettings, app)
    app.extensions[GATEWAY] = StripeGateway(
        settings.stripe_secret_key, settings.stripe_api_base, settings.stripe_webhook_secret
    )
    clients.install(app.extensions[GATEWAY])


def payments_filter(settings: BillingSettings, _extensions: dict[str, Any]) -> HtmlFilter:
    """Fills the built pages with whether payments are set up (`payments_notice`)."""
    return payments_notice.html_filter(bool(settings.stripe_secret_key))


def gateway() -> StripeGateway:
    """The app's Stripe client (`install_gateway`)."""
    found = current_app.extensions[GATEWAY]
    if not isinstance(found, StripeGateway):
        raise TypeError(f"app.extensions[{GATEWAY!r}] holds no Stripe gateway")
    return found


def _public_url() -> str:
    return app_settings().public_url


@blueprint.post("/api/billing/checkout")
@validate_request(CheckoutIn)
@validate_response(UrlOut, 200)
async def post_checkout(data: CheckoutIn) -> UrlOut:
    """Start a card checkout for a plan. Signed-out buyers send full name, e-mail and password:
    their account is created (or, with the right password, they are signed in) first."""
    url = await checkout.start_checkout(
        gateway(),
        data,
        buyer=await auth_web.current_account(),
        sign_in=auth_web.sign_in,
        client_ip=auth_web.client_ip(),
        public_url=_public_url(),
        tax=settings_of(tax_api.TaxSettings),
        seller_footer=legal_api.invoice_footer(app_settings()),
    )
    return UrlOut(url=url)


@blueprint.post("/api/billing/quote")
@validate_request(QuoteIn)
@validate_response(QuoteOut, 200)
async def post_quote(data: QuoteIn) -> QuoteOut:
    """What a buyer would pay for a plan (net, VAT, gross) by buyer type, country and VAT ID.
    With Stripe Tax on, `calculated_at_payment` says the VAT is settled at payment."""
    return await quotes.quote(
        settings_of(tax_api.TaxSettings), data, client_ip=auth_web.client_ip()
    )


@blueprint.post(WEBHOOK_PATH)
@validate_response(WebhookOut, 200)
async def post_webhook() -> WebhookOut:
    """Stripe's events, verified by signature; the only source of truth about payments."""
    payload = await request.get_data(as_text=False)
    assert isinstance(payload, bytes)
    try:
        event = gateway().verify_event(payload, request.headers.get("Stripe-Signature"))
    except ValidationFailed as refused:
        if refused.code == "malformed_event":  # signed by Stripe's secret, yet not an event
            log.warning("stripe event refused: %s", refused.message)
            metrics.webhook_event("failed")
        raise
    small_business = settings_of(tax_api.TaxSettings).vat_mode == "small_business"
    outcome = await webhooks.receive_delivered(gateway(), event, small_business=small_business)
    return WebhookOut(received=True, outcome=outcome)


# Every dashboard page asks: each process remembers each user's answer while no write to what
# it is drawn from has been committed since, through any process.
# The answer's JSON is what is kept (`core.web.answers`).
_subscriptions = CachedAnswers("billing.subscription", reads.SUBSCRIPTION_REVISIONS)


@blueprint.get("/api/billing/subscription")
@auth_web.login_required
@document_response(SubscriptionEnvelope, 200)
async def get_subscription() -> Response:
    """The signed-in user's subscription (null when there is none)."""
    account = await auth_web.require_account()

    async def build() -> SubscriptionEnvelope:
        return SubscriptionEnvelope(subscription=await reads.current_subscription(account.id))

    return await _subscriptions.respond(account.id, build)


@blueprint.get("/api/billing/orders")
@auth_web.login_required
@validate_response(OrderList, 200)
async def get_orders() -> OrderList:
    """The signed-in user's orders, newest first."""
    account = await auth_web.require_account()
    return OrderList(orders=await reads.list_orders(account.id))


@blueprint.get("/api/billing/buyer")
@auth_web.login_required
@validate_response(BuyerOut, 200)
async def get_buyer() -> BuyerOut:
    """Whether the signed-in user last bought as a consumer or a business (null: not yet)."""
    account = await auth_web.require_account()
    return BuyerOut(buyer_type=await reads.buyer_type(account.id))


@blueprint.get("/api/billing/checkout/<session_id>")
@auth_web.login_required
@validate_response(CheckoutStatus, 200)
async def get_checkout_status(session_id: str) -> CheckoutStatus:
    """Whether the payment for this checkout has been recorded (from the webhook)."""
    account = await auth_web.require_account()
    return await reads.checkout_status(account.id, session_id)


@blueprint.post("/api/billing/portal")
@auth_web.login_required
@validate_response(UrlOut, 200)
async def post_portal() -> UrlOut:
    """A Stripe customer portal session to manage the subscription and cards."""
    account = await auth_web.require_account()
    url = await reads.portal_url(gateway(), account.id, _public_url() + "/dashboard/billing")
    return UrlOut(url=url)


# ---- The admins' catalogue (catalogue_admin.py: here because a price needs Stripe) -------


@blueprint.get("/api/admin/catalogue")
@auth_web.admin_required
@validate_response(AdminCatalogueOut, 200)
async def get_admin_catalogue() -> AdminCatalogueOut:
    """Every family with every plan, hidden ones included: prices, badges, delivery,
    guarantee, Stripe ids and price history (admins only)."""
    return await catalogue_admin.catalogue(gateway())


@blueprint.patch("/api/admin/catalogue/plans/<key>")
@auth_web.admin_required
@validate_request(PlanChangesIn)
@validate_response(PlanUpdateOut, 200)
async def patch_admin_plan(key: str, data: PlanChangesIn) -> PlanUpdateOut:
    """Change a plan: texts, badge, delivery, guarantee, price (a new Stripe price, the old
    one archived), on sale or hidden; recorded in the price history and the audit log. Public
    pages show it on their next request (admins only)."""
    return await catalogue_admin.change_plan(
        gateway(),
        key,
        data,
        actor=await auth_web.audit_actor(),
        prices_include_vat=settings_of(tax_api.TaxSettings).prices_include_vat,
    )
