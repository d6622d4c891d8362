"""The Stripe gateway: every call the billing module makes to Stripe, through the official SDK.

Answers are plain dicts, so the service never depends on the SDK's object classes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from agency.core.errors import ServiceUnavailable, ValidationFailed

WEBHOOK_TOLERANCE_SECONDS = 300
MSG_NOT_CONFIGURED = "Payments are not set up yet. Please contact us to order."
MSG_BAD_SIGNATURE = "Invalid webhook signature."
MSG_NOT_AN_EVENT = "The event is not a Stripe event: it is not a JSON object with a text id."

if TYPE_CHECKING:
    # Imported where used: the SDK costs a few tenths of a second at start-up (`agency serve`),
    # and an install without a Stripe key never needs it.
    import stripe


class StripeObjectMissing(LookupError):
    """Stripe has no object with that id (resource_missing): an event about something made
    outside this program, deleted since, or of another account."""


class TaxIdRefused(ValueError):
    """Stripe refused a tax ID's value (not a valid number of that type)."""


@contextmanager
def _missing_is_lookup_error() -> Iterator[None]:
    import stripe

    try:
        yield
    except stripe.InvalidRequestError as exc:
        if exc.code != "resource_missing":
            raise
        raise StripeObjectMissing(exc.user_message or str(exc)) from exc


def _dict(value: Any) -> dict[str, Any]:
    result: dict[str, Any] = value.to_dict() if hasattr(value, "to_dict") else dict(value)
    return result


_installed: list[StripeGateway] = []


def install(gateway: StripeGateway) -> None:
    """Make `gateway` the one the program's own hooks use (the account deletion hook, the
    cancellations other modules ask for): set when the app starts."""
    _installed[:] = [gateway]


def installed() -> StripeGateway:
    """The gateway set by `install`; without one, a gateway without a key (not configured)."""
    return _installed[0] if _installed else StripeGateway("")


class StripeGateway:
    def __init__(self, secret_key: str, api_base: str = "", webhook_secret: str = "") -> None:
        self.webhook_secret = webhook_secret
        self._client: stripe.StripeClient | None = None
        if secret_key:
            import stripe

            addresses: Any = {"api": api_base.rstrip("/")} if api_base else None
            self._client = stripe.StripeClient(
                secret_key,
                base_addresses=addresses,
                http_client=stripe.HTTPXClient(),
                max_network_retries=2,
            )

    @property
    def configured(self) -> bool:
        return self._client is not None

    @property
    def client(self) -> stripe.StripeClient:
        if self._client is None:
            raise ServiceUnavailable(MSG_NOT_CONFIGURED, code="payments_not_configured")
        return self._client

    # --- webhooks -------------------------------------------------------------------------

    def verify_event(self, payload: bytes, signature: str | None) -> dict[str, Any]:
        """The event, if the signature over the raw body is valid and fresh (300 s)."""
        if not self.webhook_secret:
            raise ServiceUnavailable(MSG_NOT_CONFIGURED, code="payments_not_configured")
        import stripe

        try:
            stripe.WebhookSignature.verify_header(
                payload.decode("utf-8"),
                signature or "",
                self.webhook_secret,
                WEBHOOK_TOLERANCE_SECONDS,
            )
        except (stripe.SignatureVerificationError, ValueError, UnicodeDecodeError) as exc:
            raise ValidationFailed(MSG_BAD_SIGNATURE, code="bad_signature") from exc
        try:
            event: Any = json.loads(payload)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested thousands deep
            raise ValidationFailed(MSG_NOT_AN_EVENT, code="malformed_event") from exc
        if not isinstance(event, dict) or not isinstance(event.get("id"), str):
            raise ValidationFailed(MSG_NOT_AN_EVENT, code="malformed_event")
        return event

    # --- customers and checkout -------------------------------------------------------------

    async def create_customer(self, *, email: str, name: str, user_id: int) -> str:
        customer = await self.client.v1.customers.create_async(
            params={"email": email, "name": name, "metadata": {"user_id": str(user_id)}}
        )
        return str(customer.id)

    async def set_invoice_footer(self, customer_id: str, footer: str) -> None:
        """The footer of every invoice Stripe makes for the customer (subscription invoices
        included; a one-time payment's invoice takes the session's own)."""
        await self.client.v1.customers.update_async(
            customer_id, params={"invoice_settings": {"footer": footer}}
        )

    async def customer_tax_ids(self, customer_id: str) -> list[dict[str, Any]]:
        """The tax IDs on a customer (at most 100: Stripe allows 25)."""
        with _missing_is_lookup_error():
            found = await self.client.v1.customers.tax_ids.list_async(
                customer_id, params={"limit": 100}
            )
        return [_dict(tax_id) for tax_id in found.data]

    async def create_tax_id(self, customer_id: str, *, type: str, value: str) -> dict[str, Any]:
        """A tax ID on the customer (type `eu_vat` for an EU VAT ID); Stripe verifies it later
        and says so with `customer.tax_id.updated`."""
        import stripe

        try:
            tax_id = await self.client.v1.customers.tax_ids.create_async(
                customer_id,
                params={"type": type, "value": value},
            )
        except stripe.InvalidRequestError as exc:
            if exc.param not in ("value", "type"):
                raise
            raise TaxIdRefused(exc.user_message or str(exc)) from exc
        return _dict(tax_id)

    async def retrieve_tax_id(self, customer_id: str, tax_id: str) -> dict[str, Any]:
        with _missing_is_lookup_error():
            return _dict(await self.client.v1.customers.tax_ids.retrieve_async(customer_id, tax_id))

    async def create_checkout_session(self, params: dict[str, Any]) -> dict[str, Any]:
        session = await self.client.v1.checkout.sessions.create_async(params=params)  # type: ignore[arg-type]
        return _dict(session)

    # The retrieve_* calls raise StripeObjectMissing when Stripe has no such object.

    async def retrieve_checkout_session(self, session_id: str) -> dict[str, Any]:
        with _missing_is_lookup_error():
            return _dict(await self.client.v1.checkout.sessions.retrieve_async(session_id))

    async def retrieve_subscription(self, subscription_id: str) -> dict[str, Any]:
        with _missing_is_lookup_error():
            # The discounts' coupons and the latest invoice: what its MRR is computed from.
            subscription = await self.client.v1.subscriptions.retrieve_async(
                subscription_id,
                params={
                    "expand": [
                        "default_payment_method",
                        "discounts.source.coupon",
                        "latest_invoice",
                    ]
                },
            )
        return _dict(subscription)

    async def all_subscriptions(self) -> list[dict[str, Any]]:
        """Every subscription of the account, ended ones too (`agency billing backfill`), with
        what their MRR is computed from expanded, all pages."""
        found = await self.client.v1.subscriptions.list_async(
            params={
                "status": "all",
                "limit": 100,
                "expand": ["data.discounts.source.coupon", "data.latest_invoice"],
            }
        )
        return [_dict(subscription) async for subscription in found.auto_paging_iter()]

    async def retrieve_payment_intent(self, payment_intent_id: str) -> dict[str, Any]:
        with _missing_is_lookup_error():
            intent = await self.client.v1.payment_intents.retrieve_async(
                payment_intent_id, params={"expand": ["payment_method"]}
            )
        return _dict(intent)

    async def retrieve_invoice(self, invoice_id: str) -> dict[str, Any]:
        """The invoice with its payments (their payment intents link refunds to it)."""
        with _missing_is_lookup_error():
            invoice = await self.client.v1.invoices.retrieve_async(
                invoice_id, params={"expand": ["payments"]}
            )
        return _dict(invoice)

    async def tax_rate_percentage(self, tax_rate_id: str) -> float | None:
        """A tax rate's percentage (19.0), None when Stripe gives none."""
        with _missing_is_lookup_error():
            rate = _dict(await self.client.v1.tax_rates.retrieve_async(tax_rate_id))
        value = rate.get("effective_percentage") or rate.get("percentage")
        return float(value) if isinstance(value, int | float) else None

    async def retrieve_credit_note(self, credit_note_id: str) -> dict[str, Any]:
        with _missing_is_lookup_error():
            return _dict(await self.client.v1.credit_notes.retrieve_async(credit_note_id))

    async def retrieve_charge(self, charge_id: str) -> dict[str, Any]:
        with _missing_is_lookup_error():
            charge = await self.client.v1.charges.retrieve_async(
                charge_id, params={"expand": ["refunds"]}
            )
        return _dict(charge)

    async def cancel_at_period_end(self, subscription_id: str) -> dict[str, Any]:
        """Let the subscription run to the end of its paid period, then end (no more charges)."""
        with _missing_is_lookup_error():
            subscription = await self.client.v1.subscriptions.update_async(
                subscription_id, params={"cancel_at_period_end": True}
            )
        return _dict(subscription)

    async def cancel_now(self, subscription_id: str) -> dict[str, Any]:
        """End the subscription at once (no more charges; nothing is refunded)."""
        with _missing_is_lookup_error():
            subscription = await self.client.v1.subscriptions.cancel_async(subscription_id)
        return _dict(subscription)

    async def create_portal_session(self, *, customer: str, return_url: str) -> str:
        session = await self.client.v1.billing_portal.sessions.create_async(
            params={"customer": customer, "return_url": return_url}
        )
        return str(session.url)

    # --- catalogue sync ---------------------------------------------------------------------

    async def prices_by_lookup_key(self, lookup_key: str) -> list[dict[str, Any]]:
        prices = await self.client.v1.prices.list_async(
            params={"lookup_keys": [lookup_key], "active": True, "limit": 10}
        )
        return [_dict(price) for price in prices.data]

    async def create_product(self, *, name: str, description: str, plan_key: str) -> str:
        product = await self.client.v1.products.create_async(
            params={"name": name, "description": description, "metadata": {"plan": plan_key}}
        )
        return str(product.id)

    async def create_price(self, params: dict[str, Any]) -> str:
        price = await self.client.v1.prices.create_async(params=params)  # type: ignore[arg-type]
        return str(price.id)

    async def archive_price(self, price_id: str) -> None:
        await self.client.v1.prices.update_async(price_id, params={"active": False})
