"""A stateful fake of the Stripe API for tests and demos.

It speaks Stripe's v1 wire protocol (form-encoded bodies in bracket notation, bearer auth, JSON
answers, Stripe's error shape and statuses), keeps state in memory, serves a hosted payment page
and a billing portal a real browser can use, and sends signed webhooks like Stripe does.

Objects follow the API version of the installed SDK (``stripe._api_version._ApiVersion.CURRENT``,
``2026-10-28.endive`` for stripe 16.1):

- subscriptions carry their period on each item: ``items.data[0].current_period_start/_end``
  (there is no top-level ``current_period_*`` and no top-level ``plan``/``quantity``);
- invoices link their subscription through ``parent.subscription_details.subscription`` (there is
  no top-level ``subscription``, ``charge``, ``payment_intent`` or ``paid``); the payment intent of
  an invoice is reachable with ``expand[]=payments`` (``payments.data[0].payment.payment_intent``),
  which, as on Stripe, is only included when expanded;
- invoice lines use ``pricing.price_details.price`` and ``parent.subscription_item_details``.

Tax and invoices as Stripe does them for a German account (``account_country`` DE): automatic
tax from an EU rate table and the account's registrations (DE standard by default), reverse
charge for verified EU VAT IDs, customer tax IDs verified with Stripe's test values, invoices
numbered account-wide at finalization with a hosted page and a PDF, refunds and credit notes.
``fake.received(endpoint)`` lists the parameters each endpoint got; the contract test
(``tests/fakes/test_stripe_contract.py``) keeps parameters and fields to the pinned SDK's types.

Start it from pytest::

    with run_fake_stripe(webhook_url=..., webhook_secret="whsec_x") as fake:
        client = stripe.StripeClient(
            fake.api_key,
            base_addresses={"api": fake.base_url},
            http_client=stripe.HTTPXClient(allow_sync_methods=True),
        )
        session = client.v1.checkout.sessions.create(params={...})
        fake.pay(session.id)              # or: await fake.pay_async(session.id)

or from a shell (binds 127.0.0.1 only)::

    python -m tests.fakes.stripe_server --port 12111 --api-key sk_test_fake \
        --webhook-url http://127.0.0.1:8000/api/billing/webhook --webhook-secret whsec_demo

Control endpoints (JSON, no auth, under ``/_fake``): ``POST /_fake/webhook``,
``POST /_fake/delivery``, ``POST /_fake/flush``, ``POST /_fake/idle``,
``POST /_fake/events/<id>/resend``, ``GET /_fake/deliveries``, ``POST /_fake/reset``,
``POST /_fake/checkout/<cs_id>/pay`` (JSON: card, email, name and :meth:`FakeStripe.pay`'s
keywords), ``POST /_fake/subscriptions/<id>/renew``,
``POST /_fake/subscriptions/<id>/fail``, ``POST /_fake/tax_ids/<id>/verification`` (JSON:
status, verified_name), ``GET /_fake/objects/<id>``.
"""

from __future__ import annotations

import argparse
import asyncio
import calendar
import contextlib
import copy
import fnmatch
import html
import json
import logging
import random
import re
import secrets
import ssl
import string
import threading
import time
import typing
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl

import httpx
import stripe
from quart import Response, redirect, request
from stripe._api_version import _ApiVersion

from tests.fakes.serving import FakeServer, serving

API_VERSION = _ApiVersion.CURRENT
DEFAULT_API_KEY = "sk_test_fake"
ACCOUNT_NAME = "Fake Stripe"
ACCOUNT_COUNTRY = "DE"
# Account-level invoice numbering (Dashboard setting "account level numbering"): one sequence for
# all customers, numbers given at finalization, so drafts never leave gaps.
INVOICE_PREFIX = "AGCY1234"
DAY = 86_400

# EU standard VAT rates in basis points, as Stripe Tax applies them to a standard-rated digital
# service (the fake's own copy: it fakes Stripe, not our tax module). Source: European Commission,
# "VAT rates applied in the Member States" (2025-01), with FI 25.5 % (2024-09), EE 24 % (2025-07),
# RO 21 % (2025-08), SK 23 % (2025-01).
EU_RATES: dict[str, int] = {
    "AT": 2000, "BE": 2100, "BG": 2000, "CY": 1900, "CZ": 2100, "DE": 1900, "DK": 2500,
    "EE": 2400, "ES": 2100, "FI": 2550, "FR": 2000, "GR": 2400, "HR": 2500, "HU": 2700,
    "IE": 2300, "IT": 2200, "LT": 2100, "LU": 1700, "LV": 2100, "MT": 1800, "NL": 2100,
    "PL": 2300, "PT": 2300, "RO": 2100, "SE": 2500, "SI": 2200, "SK": 2300,
}  # fmt: skip
# eu_vat formats Stripe checks (prefix -> body); EL is Greece's VAT prefix, XI Northern Ireland.
EU_VAT_FORMATS: dict[str, str] = {
    "AT": r"U\d{8}", "BE": r"[01]\d{9}", "BG": r"\d{9,10}", "CY": r"\d{8}[A-Z]",
    "CZ": r"\d{8,10}", "DE": r"\d{9}", "DK": r"\d{8}", "EE": r"\d{9}", "EL": r"\d{9}",
    "ES": r"[A-Z0-9]\d{7}[A-Z0-9]", "FI": r"\d{8}", "FR": r"[A-HJ-NP-Z0-9]{2}\d{9}",
    "HR": r"\d{11}", "HU": r"\d{8}", "IE": r"\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W]",
    "IT": r"\d{11}", "LT": r"\d{9}|\d{12}", "LU": r"\d{8}", "LV": r"\d{11}", "MT": r"\d{8}",
    "NL": r"\d{9}B\d{2}", "PL": r"\d{10}", "PT": r"\d{9}", "RO": r"\d{2,10}", "SE": r"\d{12}",
    "SI": r"\d{8}", "SK": r"\d{10}", "XI": r"\d{9}|\d{12}|GD\d{3}|HA\d{3}",
}  # fmt: skip
OTHER_VAT_FORMATS: dict[str, str] = {
    "gb_vat": r"GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})",
    "ch_vat": r"CHE-?\d{3}\.?\d{3}\.?\d{3} ?(MWST|TVA|IVA)",
    "no_vat": r"\d{9}MVA",
}
# Countries whose buyers Checkout asks for a tax ID (tax_id_collection[required]=if_supported).
TAX_ID_COUNTRIES = set(EU_RATES) | {"GB", "CH", "NO"}
# Default tax behaviour of a price with tax_behavior "unspecified" under automatic tax (Stripe Tax
# settings "inferred by currency": inclusive for these currencies, exclusive otherwise).
INCLUSIVE_CURRENCIES = {"eur", "gbp", "chf", "sek", "dkk", "pln", "czk", "huf", "ron", "bgn"}
GERMAN_ADDRESS = {
    "city": "Berlin",
    "country": "DE",
    "line1": "Unter den Linden 1",
    "line2": None,
    "postal_code": "10117",
    "state": None,
}

# Test cards: number -> (brand, decline code or None).
TEST_CARDS: dict[str, tuple[str, str | None]] = {
    "4242424242424242": ("visa", None),
    "4000056655665556": ("visa", None),
    "5555555555554444": ("mastercard", None),
    "378282246310005": ("amex", None),
    "4000000000000002": ("visa", "generic_decline"),
    "4000000000009995": ("visa", "insufficient_funds"),
    "4000000000000069": ("visa", "expired_card"),
}
DECLINE_MESSAGES = {
    "generic_decline": "Your card was declined.",
    "insufficient_funds": "Your card has insufficient funds.",
    "expired_card": "Your card has expired.",
}

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------------------------
# Errors


class StripeError(Exception):
    """An error answered in Stripe's shape: ``{"error": {...}}`` with an HTTP status."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        type: str = "invalid_request_error",
        code: str | None = None,
        param: str | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.type = type
        self.code = code
        self.param = param
        self.extra = extra

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {}
        if self.code:
            error["code"] = self.code
            error["doc_url"] = "https://stripe.com/docs/error-codes/" + self.code.replace("_", "-")
        error.update(self.extra)
        error["message"] = self.message
        if self.param:
            error["param"] = self.param
        error["request_log_url"] = "https://dashboard.stripe.com/test/logs/" + _rand_id("req")
        error["type"] = self.type
        return {"error": error}


def missing(kind: str, object_id: str, *, param: str = "id", status: int = 404) -> StripeError:
    return StripeError(
        status, f"No such {kind}: '{object_id}'", code="resource_missing", param=param
    )


def missing_param(param: str) -> StripeError:
    return StripeError(
        400, f"Missing required param: {param}.", code="parameter_missing", param=param
    )


def unknown_param(param: str) -> StripeError:
    return StripeError(
        400, f"Received unknown parameter: {param}", code="parameter_unknown", param=param
    )


def invalid(param: str, message: str, code: str | None = None) -> StripeError:
    return StripeError(400, message, code=code, param=param)


# --------------------------------------------------------------------------------------------
# Helpers


_ALNUM = string.ascii_letters + string.digits


def _rand(n: int) -> str:
    return "".join(secrets.choice(_ALNUM) for _ in range(n))


def _rand_id(prefix: str, n: int = 24) -> str:
    return f"{prefix}_{_rand(n)}"


def add_interval(ts: int, interval: str, count: int = 1) -> int:
    """``ts`` plus ``count`` intervals, with calendar months like Stripe (day clamped)."""
    if interval == "day":
        return ts + count * DAY
    if interval == "week":
        return ts + count * 7 * DAY
    months = count * (12 if interval == "year" else 1)
    d = datetime.fromtimestamp(ts, UTC)
    m0 = d.month - 1 + months
    year, month = d.year + m0 // 12, m0 % 12 + 1
    day = min(d.day, calendar.monthrange(year, month)[1])
    return int(d.replace(year=year, month=month, day=day).timestamp())


def parse_form(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Stripe's bracket notation to nested dicts: ``a[b][0]=x`` -> ``{"a": {"b": {"0": "x"}}}``.

    ``a[]=x`` appends (its index is the number of entries so far). Arrays stay dicts with digit
    keys; :func:`as_list` turns them into lists where a list is expected.
    """
    root: dict[str, Any] = {}
    for key, value in pairs:
        head, _, rest = key.partition("[")
        parts = [head]
        if rest:
            parts += rest.rstrip("]").split("][")
        node = root
        for i, part in enumerate(parts):
            if part == "":
                part = str(len(node))
            if i == len(parts) - 1:
                node[part] = value
            else:
                child = node.get(part)
                if not isinstance(child, dict):
                    child = node[part] = {}
                node = child
    return root


def as_list(value: Any) -> list[Any]:
    if value is None or value == "":
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        if all(k.isdigit() for k in value):
            return [value[k] for k in sorted(value, key=int)]
        return [value]
    return [value]


def _fill_template(url: str, cs_id: str) -> str:
    return url.replace("{CHECKOUT_SESSION_ID}", cs_id)


def _money(amount: int, currency: str) -> str:
    symbol = {"usd": "$", "eur": "\u20ac", "gbp": "\u00a3"}.get(currency)
    value = f"{amount / 100:,.2f}"
    return f"{symbol}{value}" if symbol else f"{value} {currency.upper()}"


def _luhn_ok(number: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _div_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded half up (both non-negative)."""
    return (2 * numerator + denominator) // (2 * denominator)


def _literals(annotation: Any) -> list[str]:
    """The string values of a ``Literal[...]`` inside an SDK annotation (unions unpacked)."""
    found: list[str] = []
    if typing.get_origin(annotation) is typing.Literal:
        return [a for a in typing.get_args(annotation) if isinstance(a, str)]
    for arg in typing.get_args(annotation):
        found += _literals(arg)
    return found


_LOCALES = _literals(stripe.checkout.Session.__annotations__["locale"])
# Tax ID types as Stripe's spec lists them (the pinned SDK's TaxId.type).
TAX_ID_TYPES = _literals(stripe.TaxId.__annotations__["type"])


def _tax_id_country(type_: str, value: str) -> str | None:
    if type_ == "eu_vat":
        prefix = value[:2]
        return {"EL": "GR", "XI": "GB"}.get(prefix, prefix)
    return type_.split("_", 1)[0].upper() if "_" in type_ else None


def _normalise_tax_id(value: str) -> str:
    return re.sub(r"[\s.\-]", "", value).upper()


def _tax_id_valid(type_: str, value: str) -> bool:
    if type_ == "eu_vat":
        body = EU_VAT_FORMATS.get(value[:2])
        return body is not None and re.fullmatch(body, value[2:]) is not None
    pattern = OTHER_VAT_FORMATS.get(type_)
    return pattern is None or re.fullmatch(pattern, value) is not None


def _tax_id_type_for(value: str) -> str:
    """The tax ID type Checkout's country picker would choose for a value's prefix."""
    if value[:2] in EU_VAT_FORMATS:
        return "eu_vat"
    if value.startswith("GB"):
        return "gb_vat"
    if value.startswith("CHE"):
        return "ch_vat"
    return "unknown"


class Params:
    """Parsed request parameters with Stripe-like validation."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def check_known(self, allowed: set[str]) -> None:
        for key in self.data:
            if key not in allowed:
                raise unknown_param(key)

    def has(self, name: str) -> bool:
        return name in self.data

    def str(self, name: str, *, required: bool = False, empty_ok: bool = False) -> str | None:
        value = self.data.get(name)
        if value is None:
            if required:
                raise missing_param(name)
            return None
        if isinstance(value, dict):
            raise invalid(
                name, f"Invalid string: {{{', '.join(value)}}}", "parameter_invalid_string"
            )
        if value == "" and not empty_ok:
            raise invalid(
                name,
                f"You passed an empty string for '{name}'. We assume empty values are an attempt "
                f"to unset a parameter; however '{name}' cannot be unset. You should remove "
                f"'{name}' from your request or supply a non-empty value.",
                "parameter_invalid_empty",
            )
        return str(value)

    def int(self, name: str, *, required: bool = False, minimum: int | None = None) -> int | None:
        raw = self.str(name, required=required)
        if raw is None:
            return None
        try:
            value = int(raw)
        except ValueError:
            raise invalid(name, f"Invalid integer: {raw}", "parameter_invalid_integer") from None
        if minimum is not None and value < minimum:
            raise invalid(
                name,
                f"This value must be greater than or equal to {minimum}.",
                "parameter_invalid_integer",
            )
        return value

    def bool(self, name: str) -> bool | None:
        raw = self.str(name)
        if raw is None:
            return None
        if raw not in ("true", "false"):
            raise invalid(name, f"Invalid boolean: {raw}")
        return raw == "true"

    def enum(self, name: str, choices: list[str], *, required: bool = False) -> str | None:
        value = self.str(name, required=required)
        if value is not None and value not in choices:
            listed = ", ".join(choices[:-1]) + f", or {choices[-1]}" if len(choices) > 1 else ""
            raise invalid(name, f"Invalid {name}: must be one of {listed or choices[0]}")
        return value

    def metadata(self, name: str = "metadata", existing: dict[str, str] | None = None) -> Any:
        """New metadata: merged into ``existing``, empty values delete, ``metadata=`` clears."""
        result = dict(existing or {})
        value = self.data.get(name)
        if value is None:
            return result
        if value == "":
            return {}
        if not isinstance(value, dict):
            raise invalid(name, "Invalid object", "parameter_invalid_object")
        for key, item in value.items():
            if isinstance(item, dict):
                raise invalid(f"{name}[{key}]", "Metadata values must be strings.")
            if item == "":
                result.pop(key, None)
            else:
                result[key] = item
        if len(result) > 50:
            raise invalid(name, "You can have at most 50 metadata keys.")
        return result

    def expand(self) -> list[str]:
        return [str(v) for v in as_list(self.data.get("expand"))]

    def list_of_str(self, name: str) -> list[str]:
        return [str(v) for v in as_list(self.data.get(name))]


def _names(words: str) -> set[str]:
    return set(words.split())


# Keyword arguments of FakeStripe.pay() beyond card, email and name.
PAY_DETAILS = {
    "address", "line1", "line2", "postal_code", "city", "state", "country", "business_name",
    "tax_id", "tax_id_type", "terms_accepted",
}  # fmt: skip

# --------------------------------------------------------------------------------------------
# Delivery settings


@dataclass
class DeliverySettings:
    order: str = "normal"  # normal | reverse | shuffle
    duplicates: int = 0  # extra copies of each event (sent concurrently with the first)
    seed: int = 0
    hold: bool = False  # store, deliver on flush()
    retries: int = 3  # total tries per event
    backoff: float = 0.05  # seconds before the 2nd try; doubles after
    wait: bool = True  # completions answer after their deliveries finished
    timeout: float = 10.0


@dataclass
class Webhook:
    url: str
    secret: str
    events: list[str] = field(default_factory=lambda: ["*"])

    def wants(self, event_type: str) -> bool:
        return any(fnmatch.fnmatchcase(event_type, pattern) for pattern in self.events)


ALLOWED = {
    "customer_create": _names(
        "address balance business_name description email expand individual_name invoice_prefix "
        "invoice_settings metadata name next_invoice_sequence payment_method phone "
        "preferred_locales shipping tax tax_exempt tax_id_data test_clock validate"
    ),
    "customer_update": _names(
        "address balance business_name description email expand individual_name invoice_prefix "
        "invoice_settings metadata name next_invoice_sequence phone preferred_locales shipping "
        "tax tax_exempt validate"
    ),
    "product_create": _names(
        "active default_price_data description expand id images marketing_features metadata "
        "name package_dimensions shippable statement_descriptor tax_code type unit_label url"
    ),
    "price_create": _names(
        "active billing_scheme currency currency_options custom_unit_amount expand lookup_key "
        "metadata nickname product product_data recurring tax_behavior tiers tiers_mode "
        "transfer_lookup_key transform_quantity unit_amount unit_amount_decimal"
    ),
    "price_update": _names(
        "active currency_options expand lookup_key metadata nickname tax_behavior "
        "transfer_lookup_key"
    ),
    "session_create": _names(
        "adaptive_pricing after_expiration allow_promotion_codes automatic_tax "
        "billing_address_collection cancel_url client_reference_id consent_collection currency "
        "custom_fields custom_text customer customer_creation customer_email customer_update "
        "discounts expand expires_at invoice_creation line_items locale metadata mode "
        "payment_intent_data payment_method_collection payment_method_configuration "
        "payment_method_options allowed_payment_method_types phone_number_collection "
        "redirect_on_completion return_url saved_payment_method_options "
        "shipping_address_collection shipping_options submit_type subscription_data success_url "
        "tax_id_collection ui_mode"
    ),
    "portal_create": _names(
        "configuration customer expand flow_data locale on_behalf_of return_url"
    ),
    "subscription_update": _names(
        "cancel_at cancel_at_period_end cancellation_details default_payment_method description "
        "discounts expand items metadata proration_behavior"
    ),
    "coupon_create": _names(
        "amount_off applies_to currency currency_options duration duration_in_months expand id "
        "max_redemptions metadata name percent_off redeem_by"
    ),
    "subscription_cancel": _names("cancellation_details expand invoice_now prorate"),
    "tax_id_create": _names("expand type value"),
    "refund_create": _names(
        "amount charge currency customer expand instructions_email metadata origin "
        "payment_intent reason refund_application_fee reverse_transfer"
    ),
    "credit_note_create": _names(
        "amount credit_amount effective_at email_type expand invoice lines memo metadata "
        "out_of_band_amount reason refund_amount refunds shipping_cost"
    ),
    "registration_create": _names("active_from country country_options expand expires_at"),
    "registration_update": _names("active_from expand expires_at"),
}

# Nested parameters the fake reads (dotted paths; lists without an index). The contract test
# checks each against the pinned SDK's request types.
ALLOWED_NESTED = {
    "checkout.sessions.create": _names(
        "automatic_tax.enabled automatic_tax.liability.type automatic_tax.liability.account "
        "tax_id_collection.enabled tax_id_collection.required "
        "customer_update.address customer_update.name customer_update.shipping "
        "invoice_creation.enabled invoice_creation.invoice_data.account_tax_ids "
        "invoice_creation.invoice_data.custom_fields.name "
        "invoice_creation.invoice_data.custom_fields.value "
        "invoice_creation.invoice_data.description invoice_creation.invoice_data.footer "
        "invoice_creation.invoice_data.metadata invoice_creation.invoice_data.issuer.type "
        "invoice_creation.invoice_data.rendering_options.amount_tax_display "
        "consent_collection.terms_of_service consent_collection.promotions "
        "custom_text.after_submit.message custom_text.shipping_address.message "
        "custom_text.submit.message custom_text.terms_of_service_acceptance.message "
        "line_items.price line_items.quantity subscription_data.metadata "
        "subscription_data.description payment_intent_data.metadata "
        "payment_intent_data.description"
    ),
    "customers.create": _names(
        "address.city address.country address.line1 address.line2 address.postal_code "
        "address.state invoice_settings.footer invoice_settings.custom_fields.name "
        "invoice_settings.custom_fields.value tax_id_data.type tax_id_data.value "
        "tax.validate_location tax.ip_address"
    ),
    "prices.create": _names("recurring.interval recurring.interval_count product_data.name"),
    "credit_notes.create": _names(
        "lines.type lines.invoice_line_item lines.amount lines.quantity lines.description "
        "lines.unit_amount refunds.refund refunds.amount_refunded"
    ),
    "tax.registrations.create": _names(
        "country_options.de.type country_options.de.standard.place_of_supply_scheme "
        "country_options.fr.type country_options.at.type"
    ),
}

RESOURCE_NAMES = {
    "customer": "customer",
    "product": "product",
    "price": "price",
    "checkout.session": "checkout.session",
    "subscription": "subscription",
    "invoice": "invoice",
    "payment_intent": "payment_intent",
    "payment_method": "PaymentMethod",
    "charge": "charge",
    "event": "event",
    "billing_portal.session": "billing_portal.session",
    "coupon": "coupon",
}


# --------------------------------------------------------------------------------------------
# The fake


class FakeStripe(FakeServer):
    """State, HTTP app, webhook sender. Use :func:`run_fake_stripe` to serve it on a port."""

    name = "fake-stripe"

    def __init__(
        self,
        *,
        api_key: str = DEFAULT_API_KEY,
        webhook_url: str | None = None,
        webhook_secret: str | None = None,
        base_url: str = "http://127.0.0.1:12111",
        webhook_verify: ssl.SSLContext | bool = True,
    ) -> None:
        super().__init__()
        self.api_key = api_key
        # How webhook deliveries check an https:// endpoint's certificate (a test's local CA).
        self._webhook_verify = webhook_verify
        self.base_url = base_url
        self._initial_webhook = (
            Webhook(webhook_url, webhook_secret) if webhook_url and webhook_secret else None
        )
        self._lock = threading.RLock()
        self._http: httpx.AsyncClient | None = None
        self._reset_state()
        self._build_app()

    # ---------------------------------------------------------------- state

    def _reset_state(self) -> None:
        with self._lock:
            self.objects: dict[str, dict[str, Any]] = {}
            self._line_items: dict[str, list[dict[str, Any]]] = {}
            self._invoice_payments: dict[str, list[dict[str, Any]]] = {}
            self._events: list[dict[str, Any]] = []
            self._deliveries: list[dict[str, Any]] = []
            self._held: list[tuple[list[dict[str, Any]], DeliverySettings]] = []
            self._idempotency: dict[tuple[str, str], tuple[str, int, Any]] = {}
            self.webhook: Webhook | None = copy.copy(self._initial_webhook)
            self.delivery = DeliverySettings()
            self._random = random.Random(0)
            self._tasks: set[asyncio.Task[Any]] = set()
            self._portal_configuration = _rand_id("bpc")
            self._received: list[tuple[str, dict[str, Any]]] = []
            self._invoice_sequence = 0
            self._tax_rates: dict[tuple[str, int, bool], str] = {}
            self._breakdowns: dict[str, list[dict[str, Any]]] = {}
            self._registrations: dict[str, dict[str, Any]] = {}
            # The account is German and registered there (Stripe Tax needs >= 1 registration).
            self._store(
                self._registration(
                    "DE",
                    "standard",
                    self.now() - 365 * DAY,
                    None,
                    {"place_of_supply_scheme": "standard"},
                )
            )

    def now(self) -> int:
        return int(time.time())

    def _store(self, obj: dict[str, Any]) -> dict[str, Any]:
        if obj["object"] == "tax.registration":
            # Account settings rather than objects: kept apart (fake.objects starts empty).
            self._registrations[obj["id"]] = obj
        else:
            self.objects[obj["id"]] = obj
        return obj

    def _get(self, kind: str, object_id: str, *, param: str = "id", status: int = 404) -> Any:
        obj = (self._registrations if kind == "tax.registration" else self.objects).get(object_id)
        if obj is None or obj.get("object") != kind:
            raise missing(RESOURCE_NAMES.get(kind, kind), object_id, param=param, status=status)
        return obj

    def _all(self, kind: str) -> list[dict[str, Any]]:
        """Objects of a kind, newest first (Stripe's list order)."""
        if kind == "tax.registration":
            return list(reversed(self._registrations.values()))
        return [o for o in reversed(self.objects.values()) if o.get("object") == kind]

    def _view(self, obj: dict[str, Any]) -> dict[str, Any]:
        """A snapshot for answers and events (subscription items show their current price)."""
        view = {k: copy.deepcopy(v) for k, v in obj.items() if not k.startswith("_")}
        if view.get("object") == "subscription":
            for item in view["items"]["data"]:
                price = self.objects.get(item["price"]["id"])
                if price is not None:
                    item["price"] = copy.deepcopy(price)
                    item["plan"] = _plan_of(price)
        return view

    def _expand(self, obj: Any, path: list[str]) -> Any:
        if not path:
            return obj
        if isinstance(obj, list):
            return [self._expand(o, path) for o in obj]
        if not isinstance(obj, dict):
            return obj
        head, rest = path[0], path[1:]
        if head not in obj:
            included = self._includable(obj, head)
            if included is None:
                raise invalid("expand", f"This property cannot be expanded ({head}).")
            obj[head] = included
        value = obj[head]
        if isinstance(value, list):  # a list of ids (discounts): each expanded
            value = [
                self._view(self.objects[v]) if isinstance(v, str) and v in self.objects else v
                for v in value
            ]
        if isinstance(value, str) and value in self.objects:
            value = self._view(self.objects[value])
        elif isinstance(value, str) or (not isinstance(value, dict | list) and value is not None):
            raise invalid("expand", f"This property cannot be expanded ({head}).")
        obj[head] = self._expand(value, rest)
        return obj

    def _includable(self, obj: dict[str, Any], name: str) -> dict[str, Any] | None:
        kind = obj.get("object")
        if kind == "checkout.session" and name == "line_items":
            return self._list_object(
                self._line_items.get(obj["id"], []),
                f"/v1/checkout/sessions/{obj['id']}/line_items",
            )
        if kind == "customer" and name == "tax_ids":
            return self._list_object(
                [self._view(t) for t in self._all("tax_id") if t["customer"] == obj["id"]],
                f"/v1/customers/{obj['id']}/tax_ids",
            )
        if kind == "charge" and name == "refunds":
            charge = self.objects[obj["id"]]
            return self._list_object(
                [self._view(self.objects[r]) for r in charge.get("_refunds", [])],
                f"/v1/charges/{obj['id']}/refunds",
            )
        if kind == "invoice" and name == "payments":
            return self._list_object(
                self._invoice_payments.get(obj["id"], []), "/v1/invoice_payments"
            )
        return None

    def _render(self, obj: dict[str, Any], expand: list[str]) -> dict[str, Any]:
        view = self._view(obj)
        if view.get("object") == "checkout.session" and "total_details.breakdown" in expand:
            view["total_details"]["breakdown"] = {
                "discounts": [],
                "taxes": copy.deepcopy(self._breakdowns.get(view["id"], [])),
            }
            expand = [e for e in expand if e != "total_details.breakdown"]
        for path in expand:
            view = self._expand(view, path.split("."))
        return view

    @staticmethod
    def _list_object(items: list[dict[str, Any]], url: str) -> dict[str, Any]:
        return {
            "object": "list",
            "data": copy.deepcopy(items),
            "has_more": False,
            "total_count": len(items),
            "url": url,
        }

    def _paginate(self, items: list[dict[str, Any]], params: Params, url: str) -> dict[str, Any]:
        limit = params.int("limit", minimum=1)
        limit = 10 if limit is None else limit
        if limit > 100:
            raise invalid("limit", "This value must be less than or equal to 100.")
        after, before = params.str("starting_after"), params.str("ending_before")
        ids = [i["id"] for i in items]
        if after is not None:
            if after not in ids:
                raise missing(
                    items[0]["object"] if items else "object", after, param="starting_after"
                )
            items = items[ids.index(after) + 1 :]
        elif before is not None:
            if before not in ids:
                raise missing(
                    items[0]["object"] if items else "object", before, param="ending_before"
                )
            start = ids.index(before)
            items = items[max(0, start - limit) : start]
            return self._listing(items, start > limit, url, params)
        return self._listing(items[:limit], len(items) > limit, url, params)

    def _listing(
        self, items: list[dict[str, Any]], has_more: bool, url: str, params: Params
    ) -> dict[str, Any]:
        data = [self._view(i) for i in items]
        for path in params.expand():
            parts = path.split(".")
            if parts[0] != "data":
                raise invalid("expand", f"This property cannot be expanded ({parts[0]}).")
            data = [self._expand(d, parts[1:]) for d in data]
        return {"object": "list", "data": data, "has_more": has_more, "url": url}

    # ---------------------------------------------------------------- events and webhooks

    def _event(
        self,
        type_: str,
        obj: dict[str, Any],
        previous: dict[str, Any] | None = None,
        request_info: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        data: dict[str, Any] = {"object": self._view(obj)}
        if previous:
            data["previous_attributes"] = copy.deepcopy(previous)
        event = {
            "id": _rand_id("evt"),
            "object": "event",
            "api_version": API_VERSION,
            "created": self.now(),
            "data": data,
            "livemode": False,
            "pending_webhooks": 1 if self.webhook and self.webhook.wants(type_) else 0,
            "request": request_info or {"id": None, "idempotency_key": None},
            "type": type_,
        }
        self._events.append(event)
        return event

    def _find_event(self, event_id: str) -> dict[str, Any]:
        for event in self._events:
            if event["id"] == event_id:
                return event
        raise missing("event", event_id)

    @staticmethod
    def _diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
        return {k: before.get(k) for k in after if before.get(k) != after[k]}

    def _ordered(self, events: list[dict[str, Any]], settings: DeliverySettings) -> list[Any]:
        events = list(events)
        if settings.order == "reverse":
            events.reverse()
        elif settings.order == "shuffle":
            self._random.shuffle(events)
        return events

    async def _dispatch(self, events: list[dict[str, Any]]) -> None:
        """Deliver a batch of new events according to the current delivery settings."""
        with self._lock:
            settings = copy.copy(self.delivery)
            events = self._ordered(events, settings)
            if settings.hold:
                self._held.append((events, settings))
                return
        await self._run_batch(events, settings)

    async def _run_batch(self, events: list[dict[str, Any]], settings: DeliverySettings) -> None:
        task = asyncio.ensure_future(self._deliver_batch(events, settings))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if settings.wait:
            await asyncio.shield(task)

    async def _deliver_batch(
        self, events: list[dict[str, Any]], settings: DeliverySettings
    ) -> None:
        failed: list[dict[str, Any]] = []
        for event in events:
            copies = 1 + max(0, settings.duplicates)
            results = await asyncio.gather(
                *(
                    self._attempt(event, 1, duplicate=i > 0, settings=settings)
                    for i in range(copies)
                )
            )
            if not any(results):
                failed.append(event)
        delay = settings.backoff
        for attempt in range(2, settings.retries + 1):
            if not failed:
                break
            await asyncio.sleep(delay)
            delay *= 2
            failed = [e for e in failed if not await self._attempt(e, attempt, settings=settings)]

    async def _attempt(
        self,
        event: dict[str, Any],
        attempt: int,
        *,
        duplicate: bool = False,
        settings: DeliverySettings,
    ) -> bool:
        webhook = self.webhook
        if webhook is None or not webhook.wants(event["type"]):
            return True
        payload = json.dumps(event, indent=2)
        header = stripe.WebhookSignature.generate_signature_header(payload, webhook.secret)
        record: dict[str, Any] = {
            "event_id": event["id"],
            "type": event["type"],
            "status_code": None,
            "attempt": attempt,
            "duplicate": duplicate,
            "error": None,
            "url": webhook.url,
            "at": time.time(),
        }
        try:
            assert self._http is not None
            response = await self._http.post(
                webhook.url,
                content=payload.encode(),
                headers={
                    "Content-Type": "application/json; charset=utf-8",
                    "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
                    "Stripe-Signature": header,
                },
                timeout=settings.timeout,
            )
            record["status_code"] = response.status_code
            ok = 200 <= response.status_code < 300
        except httpx.HTTPError as exc:
            record["error"] = f"{type(exc).__name__}: {exc}"
            ok = False
        with self._lock:
            self._deliveries.append(record)
        return ok

    async def _flush(self) -> int:
        with self._lock:
            held, self._held = self._held, []
        for events, settings in held:
            settings.hold = False
            await self._run_batch(events, settings)
        return sum(len(e) for e, _ in held)

    async def _resend(self, event_id: str) -> None:
        with self._lock:
            event = self._find_event(event_id)
            settings = copy.copy(self.delivery)
        await self._run_batch([event], settings)

    async def _idle(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while self._tasks:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("webhook deliveries still running")
            await asyncio.wait(set(self._tasks), timeout=remaining)

    # ---------------------------------------------------------------- resources

    @staticmethod
    def _address(p: Params, name: str = "address") -> dict[str, Any] | None:
        raw = p.data.get(name)
        if raw is None or raw == "":
            return None
        if not isinstance(raw, dict):
            raise invalid(name, "Invalid object", "parameter_invalid_object")
        for key in raw:
            if key not in ("city", "country", "line1", "line2", "postal_code", "state"):
                raise unknown_param(f"{name}[{key}]")
        address = {
            k: (str(raw[k]) or None) if k in raw else None
            for k in ("city", "country", "line1", "line2", "postal_code", "state")
        }
        if address["country"]:
            address["country"] = address["country"].upper()
        return address

    def _invoice_settings(
        self, p: Params, existing: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        settings = copy.deepcopy(existing) or {
            "custom_fields": None,
            "default_payment_method": None,
            "footer": None,
            "rendering_options": None,
        }
        raw = p.data.get("invoice_settings")
        if isinstance(raw, dict):
            sub = Params(raw)
            if sub.has("footer"):
                settings["footer"] = sub.str("footer", empty_ok=True) or None
            if "custom_fields" in raw:
                fields = as_list(raw["custom_fields"])
                settings["custom_fields"] = [
                    {"name": str(f.get("name")), "value": str(f.get("value"))}
                    for f in fields
                    if isinstance(f, dict)
                ] or None
        return settings

    def _customer(self, p: Params) -> dict[str, Any]:
        now = self.now()
        tax_exempt = p.enum("tax_exempt", ["exempt", "none", "reverse"]) or "none"
        return {
            "id": _rand_id("cus", 14),
            "object": "customer",
            "address": self._address(p),
            "business_name": p.str("business_name"),
            "individual_name": p.str("individual_name"),
            "balance": 0,
            "created": now,
            "currency": None,
            "default_source": None,
            "delinquent": False,
            "description": p.str("description"),
            "discount": None,
            "email": p.str("email"),
            "invoice_prefix": "".join(secrets.choice(string.ascii_uppercase) for _ in range(8)),
            "invoice_settings": self._invoice_settings(p),
            "livemode": False,
            "metadata": p.metadata(),
            "name": p.str("name"),
            "next_invoice_sequence": 1,
            "phone": p.str("phone"),
            "preferred_locales": p.list_of_str("preferred_locales"),
            "shipping": None,
            "tax_exempt": tax_exempt,
            "test_clock": None,
        }

    def _product(self, p: Params) -> dict[str, Any]:
        now = self.now()
        product_id = p.str("id") or _rand_id("prod", 14)
        if product_id in self.objects:
            raise invalid("id", "Product already exists.", "resource_already_exists")
        return {
            "id": product_id,
            "object": "product",
            "active": p.bool("active") is not False,
            "created": now,
            "default_price": None,
            "description": p.str("description"),
            "images": p.list_of_str("images"),
            "livemode": False,
            "marketing_features": [],
            "metadata": p.metadata(),
            "name": p.str("name", required=True),
            "package_dimensions": None,
            "shippable": None,
            "statement_descriptor": p.str("statement_descriptor"),
            "tax_code": p.str("tax_code"),
            "type": "service",
            "unit_label": p.str("unit_label"),
            "updated": now,
            "url": p.str("url"),
        }

    def _take_lookup_key(self, key: str, price_id: str, transfer: bool) -> None:
        for other in self._all("price"):
            if other["id"] != price_id and other.get("lookup_key") == key:
                if not transfer:
                    raise invalid(
                        "lookup_key",
                        f"A price (`{other['id']}`) already uses that lookup key. Set "
                        "`transfer_lookup_key` to `true` to move the lookup key to this price.",
                    )
                other["lookup_key"] = None

    def _price(self, p: Params) -> dict[str, Any]:
        currency = p.str("currency", required=True)
        assert currency is not None
        product_id = p.str("product")
        if product_id is None:
            data = p.data.get("product_data")
            if not isinstance(data, dict):
                raise missing_param("product")
            sub = Params(data)
            if sub.str("name") is None:
                raise missing_param("product_data[name]")
            product = self._store(
                self._product(Params({"name": sub.str("name"), "metadata": data.get("metadata")}))
            )
            product_id = product["id"]
        else:
            self._get("product", product_id, param="product", status=400)
        unit_amount = p.int("unit_amount", minimum=0)
        if unit_amount is None:
            if p.has("unit_amount_decimal"):
                unit_amount = int(float(p.str("unit_amount_decimal") or 0))
            else:
                raise missing_param("unit_amount")
        recurring = None
        raw = p.data.get("recurring")
        if raw is not None:
            if not isinstance(raw, dict):
                raise invalid("recurring", "Invalid object", "parameter_invalid_object")
            rp = Params(raw)
            interval = rp.enum("interval", ["day", "month", "week", "year"], required=True)
            recurring = {
                "interval": interval,
                "interval_count": rp.int("interval_count", minimum=1) or 1,
                "meter": None,
                "trial_period_days": rp.int("trial_period_days"),
                "usage_type": rp.str("usage_type") or "licensed",
            }
        price_id = _rand_id("price")
        lookup_key = p.str("lookup_key")
        if lookup_key:
            self._take_lookup_key(lookup_key, price_id, bool(p.bool("transfer_lookup_key")))
        return {
            "id": price_id,
            "object": "price",
            "active": p.bool("active") is not False,
            "billing_scheme": "per_unit",
            "created": self.now(),
            "currency": currency.lower(),
            "custom_unit_amount": None,
            "livemode": False,
            "lookup_key": lookup_key,
            "metadata": p.metadata(),
            "nickname": p.str("nickname"),
            "product": product_id,
            "recurring": recurring,
            "tax_behavior": p.enum("tax_behavior", ["exclusive", "inclusive", "unspecified"])
            or "unspecified",
            "tiers_mode": None,
            "transform_quantity": None,
            "type": "recurring" if recurring else "one_time",
            "unit_amount": unit_amount,
            "unit_amount_decimal": str(unit_amount),
        }

    def _session(self, p: Params) -> dict[str, Any]:
        mode = p.enum("mode", ["payment", "setup", "subscription"], required=True)
        if mode == "setup":
            raise invalid("mode", "The fake Stripe server does not support `setup` mode.")
        ui_mode = (
            p.enum("ui_mode", ["elements", "embedded_page", "form", "hosted_page"]) or "hosted_page"
        )
        if ui_mode != "hosted_page":
            raise invalid("ui_mode", "The fake Stripe server supports only `hosted_page` sessions.")
        customer_id, customer_email = p.str("customer"), p.str("customer_email")
        if customer_id and customer_email:
            raise invalid(
                "customer_email",
                "You may only specify one of these parameters: customer, customer_email.",
            )
        for param, only in (
            ("subscription_data", "subscription"),
            ("payment_intent_data", "payment"),
            ("customer_creation", "payment"),
            ("invoice_creation", "payment"),
        ):
            if p.has(param) and mode != only:
                raise invalid(param, f"You can not pass `{param}` in `{mode}` mode.")
        customer_creation = p.enum("customer_creation", ["always", "if_required"])
        tax_opts = _nested(p, "automatic_tax", {"enabled", "liability"})
        automatic_tax = bool(tax_opts.bool("enabled")) if tax_opts else False
        if tax_opts is not None and tax_opts.bool("enabled") is None:
            raise missing_param("automatic_tax[enabled]")
        id_opts = _nested(p, "tax_id_collection", {"enabled", "required"})
        if id_opts is not None and id_opts.bool("enabled") is None:
            raise missing_param("tax_id_collection[enabled]")
        tax_id_collection = {
            "enabled": bool(id_opts and id_opts.bool("enabled")),
            "required": (id_opts and id_opts.enum("required", ["if_supported", "never"]))
            or "never",
        }
        if tax_id_collection["required"] == "if_supported" and not tax_id_collection["enabled"]:
            raise invalid(
                "tax_id_collection[required]",
                "`tax_id_collection[required]` can only be set when `tax_id_collection[enabled]` "
                "is true.",
            )
        update_opts = _nested(p, "customer_update", {"address", "name", "shipping"})
        customer_update = {
            k: (update_opts.enum(k, ["auto", "never"]) if update_opts else None) or "never"
            for k in ("address", "name", "shipping")
        }
        if update_opts is not None and customer_id is None:
            raise invalid("customer_update", "`customer_update` can only be used with `customer`.")
        billing_address_collection = p.enum("billing_address_collection", ["auto", "required"])
        invoice_opts = _nested(p, "invoice_creation", {"enabled", "invoice_data"})
        if invoice_opts is not None and invoice_opts.bool("enabled") is None:
            raise missing_param("invoice_creation[enabled]")
        invoice_data = _nested(
            invoice_opts or Params({}),
            "invoice_data",
            {
                "account_tax_ids",
                "custom_fields",
                "description",
                "footer",
                "issuer",
                "metadata",
                "rendering_options",
            },
            prefix="invoice_creation",
        )
        custom_fields = None
        if invoice_data is not None and invoice_data.data.get("custom_fields"):
            fields = as_list(invoice_data.data["custom_fields"])
            if len(fields) > 4:
                raise invalid(
                    "invoice_creation[invoice_data][custom_fields]",
                    "You can have at most 4 custom fields.",
                )
            custom_fields = []
            for i, raw_field in enumerate(fields):
                fp = Params(raw_field if isinstance(raw_field, dict) else {})
                name = f"invoice_creation[invoice_data][custom_fields][{i}]"
                custom_fields.append(
                    {
                        "name": fp.str("name", required=True)
                        if fp.has("name")
                        else _raise(missing_param(f"{name}[name]")),
                        "value": fp.str("value", required=True)
                        if fp.has("value")
                        else _raise(missing_param(f"{name}[value]")),
                    }
                )
        footer = invoice_data.str("footer") if invoice_data else None
        if footer is not None and len(footer) > 5000:
            raise invalid(
                "invoice_creation[invoice_data][footer]",
                "Footer must be at most 5000 characters.",
            )
        locale = p.enum("locale", _LOCALES)
        consent_opts = _nested(
            p,
            "consent_collection",
            {"payment_method_reuse_agreement", "promotions", "terms_of_service"},
        )
        consent_collection = (
            {
                "payment_method_reuse_agreement": None,
                "promotions": consent_opts.enum("promotions", ["auto", "none"]),
                "terms_of_service": consent_opts.enum("terms_of_service", ["none", "required"]),
            }
            if consent_opts is not None
            else None
        )
        text_opts = _nested(
            p,
            "custom_text",
            {"after_submit", "shipping_address", "submit", "terms_of_service_acceptance"},
        )
        custom_text: dict[str, Any] = {
            "after_submit": None,
            "shipping_address": None,
            "submit": None,
            "terms_of_service_acceptance": None,
        }
        if text_opts is not None:
            for key in custom_text:
                entry = text_opts.data.get(key)
                if isinstance(entry, dict):
                    message = Params(entry).str("message")
                    if message is None:
                        raise missing_param(f"custom_text[{key}][message]")
                    if len(message) > 1200:
                        raise invalid(
                            f"custom_text[{key}][message]",
                            "Custom text must be at most 1200 characters.",
                        )
                    custom_text[key] = {"message": message}
        raw_items = as_list(p.data.get("line_items"))
        if not raw_items:
            raise missing_param("line_items")
        items: list[tuple[dict[str, Any], int]] = []
        for index, raw in enumerate(raw_items):
            name = f"line_items[{index}]"
            if not isinstance(raw, dict):
                raise invalid(name, "Invalid object", "parameter_invalid_object")
            lp = Params(raw)
            for key in raw:
                if key not in {
                    "adjustable_quantity",
                    "dynamic_tax_rates",
                    "price",
                    "price_data",
                    "quantity",
                    "tax_rates",
                }:
                    raise unknown_param(f"{name}[{key}]")
            if lp.has("price_data"):
                raise invalid(f"{name}[price_data]", "The fake supports only `price` line items.")
            price_id = lp.str("price")
            if price_id is None:
                raise invalid(
                    name,
                    "You must specify either `price` or `price_data` in each line item.",
                    "parameter_missing",
                )
            price = self._get("price", price_id, param=f"{name}[price]", status=400)
            if not price["active"]:
                raise invalid(
                    f"{name}[price]",
                    f"The price `{price_id}` is not active. This field only accepts active prices.",
                )
            quantity = lp.int("quantity", minimum=0)
            if quantity is None:
                raise missing_param(f"{name}[quantity]")
            items.append((price, quantity))
        currencies = {price["currency"] for price, _ in items}
        if len(currencies) > 1:
            raise invalid("line_items", "Checkout does not support multiple currencies.")
        if mode == "subscription" and not any(pr["type"] == "recurring" for pr, _ in items):
            raise invalid(
                "line_items",
                "You must provide at least one recurring price in `subscription` mode when "
                "using prices.",
            )
        if mode == "payment":
            for index, (price, _) in enumerate(items):
                if price["type"] == "recurring":
                    raise invalid(
                        f"line_items[{index}][price]",
                        "You specified `payment` mode but passed a recurring price. Either "
                        "switch to `subscription` mode or use only one-time prices.",
                    )
        if customer_id is not None:
            existing = self._get("customer", customer_id, param="customer", status=400)
            if (
                automatic_tax
                and not (existing.get("address") or {}).get("country")
                and customer_update["address"] != "auto"
                and customer_update["shipping"] != "auto"
            ):
                raise invalid(
                    "customer_update[address]",
                    "Automatic tax calculation in Checkout requires a valid address on the "
                    "Customer. Add a valid address to the Customer or set either "
                    "`customer_update[address]` to 'auto' or `customer_update[shipping]` to "
                    "'auto' to save the address entered in Checkout to the Customer.",
                )
            if tax_id_collection["enabled"] and customer_update["name"] != "auto":
                raise invalid(
                    "customer_update[name]",
                    "Tax ID collection requires updating business name on the customer. To "
                    "enable tax ID collection for an existing customer, please set "
                    "`customer_update[name]` to `auto`.",
                )
        for url_param in ("success_url", "cancel_url"):
            url = p.str(url_param)
            if url is not None and not url.startswith(("http://", "https://")):
                raise invalid(url_param, "Not a valid URL", "url_invalid")
        now = self.now()
        expires_at = p.int("expires_at") or now + DAY
        if not now + 1800 - 5 <= expires_at <= now + DAY:
            raise invalid(
                "expires_at",
                "The `expires_at` timestamp must be between 30 minutes and 24 hours from "
                "Checkout Session creation.",
            )
        cs_id = "cs_test_" + "a1" + _rand(56)
        coupon = self._discount_coupon(p, "discounts")
        if coupon is not None and p.bool("allow_promotion_codes"):
            raise invalid(
                "allow_promotion_codes",
                "You may only specify one of these parameters: allow_promotion_codes, discounts.",
            )
        sub_data = Params(p.data.get("subscription_data") or {})
        pi_data = Params(p.data.get("payment_intent_data") or {})
        amount = sum(price["unit_amount"] * q for price, q in items)
        session: dict[str, Any] = {
            "id": cs_id,
            "object": "checkout.session",
            "adaptive_pricing": {"enabled": False},
            "after_expiration": None,
            "allow_promotion_codes": p.bool("allow_promotion_codes"),
            "amount_subtotal": amount,
            "amount_total": amount,
            "automatic_tax": {
                "enabled": automatic_tax,
                "liability": {"account": None, "type": "self"} if automatic_tax else None,
                "provider": "stripe" if automatic_tax else None,
                "status": "requires_location_inputs" if automatic_tax else None,
            },
            "billing_address_collection": billing_address_collection,
            "cancel_url": p.str("cancel_url"),
            "client_reference_id": p.str("client_reference_id"),
            "client_secret": None,
            "collected_information": None,
            "consent": None,
            "consent_collection": consent_collection,
            "created": now,
            "currency": items[0][0]["currency"],
            "currency_conversion": None,
            "custom_fields": [],
            "custom_text": custom_text,
            "customer": customer_id,
            "customer_creation": (customer_creation or "if_required")
            if mode == "payment"
            else None,
            "customer_details": None,
            "customer_email": customer_email,
            "discounts": [{"coupon": coupon["id"], "promotion_code": None}] if coupon else [],
            "expires_at": expires_at,
            "invoice": None,
            "invoice_creation": (
                {
                    "enabled": bool(invoice_opts and invoice_opts.bool("enabled")),
                    "invoice_data": {
                        "account_tax_ids": (
                            invoice_data.list_of_str("account_tax_ids") or None
                            if invoice_data
                            else None
                        ),
                        "custom_fields": custom_fields,
                        "description": invoice_data.str("description") if invoice_data else None,
                        "footer": footer,
                        "issuer": {"type": "self"},
                        "metadata": invoice_data.metadata() if invoice_data else {},
                        "rendering_options": None,
                    },
                }
                if mode == "payment"
                else None
            ),
            "livemode": False,
            "locale": locale,
            "metadata": p.metadata(),
            "mode": mode,
            "payment_intent": None,
            "payment_link": None,
            "payment_method_collection": "if_required" if mode == "payment" else "always",
            "payment_method_configuration_details": None,
            "payment_method_options": {"card": {"request_three_d_secure": "automatic"}},
            "payment_method_types": ["card"],
            "payment_status": "unpaid",
            "phone_number_collection": {"enabled": False},
            "recovered_from": None,
            "saved_payment_method_options": None,
            "setup_intent": None,
            "shipping_address_collection": None,
            "shipping_cost": None,
            "shipping_options": [],
            "status": "open",
            "submit_type": p.enum("submit_type", ["auto", "book", "donate", "pay", "subscribe"]),
            "subscription": None,
            "success_url": p.str("success_url"),
            "tax_id_collection": tax_id_collection,
            "total_details": {"amount_discount": 0, "amount_shipping": 0, "amount_tax": 0},
            "ui_mode": "hosted_page",
            "url": f"{self.base_url}/pay/{cs_id}",
            # Kept out of answers (see _view_session): what the payment will copy.
            "_subscription_metadata": sub_data.metadata(),
            "_subscription_description": sub_data.str("description"),
            "_payment_intent_metadata": pi_data.metadata(),
            "_payment_intent_description": pi_data.str("description"),
            "_customer_update": customer_update,
        }
        product_names = {pr["product"]: self.objects[pr["product"]]["name"] for pr, _ in items}
        self._line_items[cs_id] = [
            {
                "id": _rand_id("li"),
                "object": "item",
                "amount_discount": 0,
                "amount_subtotal": price["unit_amount"] * q,
                "amount_tax": 0,
                "amount_total": price["unit_amount"] * q,
                "currency": price["currency"],
                "description": product_names[price["product"]],
                "metadata": {},
                "price": copy.deepcopy(price),
                "quantity": q,
            }
            for price, q in items
        ]
        if coupon is not None:
            coupon["times_redeemed"] += 1
            self._session_discount(session, coupon)
        if automatic_tax:
            known = self.objects.get(customer_id or "")
            if known is not None and (known.get("address") or {}).get("country"):
                # Stripe calculates at once from the customer's saved address.
                self._apply_session_tax(session, self._buyer_decision(known, True))
                session["automatic_tax"]["status"] = "complete"
        return session

    def _payment_method(
        self, number: str, brand: str, customer: str | None, email: str | None, name: str | None
    ) -> dict[str, Any]:
        year = datetime.now(UTC).year + 4
        return self._store(
            {
                "id": _rand_id("pm"),
                "object": "payment_method",
                "allow_redisplay": "limited",
                "billing_details": {
                    "address": {
                        "city": None,
                        "country": "US",
                        "line1": None,
                        "line2": None,
                        "postal_code": "42424",
                        "state": None,
                    },
                    "email": email,
                    "name": name,
                    "phone": None,
                    "tax_id": None,
                },
                "card": {
                    "brand": brand,
                    "checks": {
                        "address_line1_check": None,
                        "address_postal_code_check": "pass",
                        "cvc_check": "pass",
                    },
                    "country": "US",
                    "display_brand": brand,
                    "exp_month": 12,
                    "exp_year": year,
                    "fingerprint": _rand(16),
                    "funding": "credit",
                    "generated_from": None,
                    "last4": number[-4:],
                    "networks": {"available": [brand], "preferred": None},
                    "regulated_status": "unregulated",
                    "three_d_secure_usage": {"supported": True},
                    "wallet": None,
                },
                "created": self.now(),
                "customer": customer,
                "livemode": False,
                "metadata": {},
                "radar_options": {},
                "type": "card",
            }
        )

    def _payment_intent(
        self,
        amount: int,
        currency: str,
        customer: str | None,
        pm: dict[str, Any],
        *,
        metadata: dict[str, str] | None = None,
        description: str | None = None,
        decline: str | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        now = self.now()
        pi_id = "pi_3" + _rand(23)
        charge = self._store(
            {
                "id": "ch_3" + pi_id[4:],
                "object": "charge",
                "amount": amount,
                "amount_captured": 0 if decline else amount,
                "amount_refunded": 0,
                "balance_transaction": None if decline else _rand_id("txn"),
                "billing_details": copy.deepcopy(pm["billing_details"]),
                "captured": not decline,
                "created": now,
                "currency": currency,
                "customer": customer,
                "description": description,
                "disputed": False,
                "failure_code": "card_declined" if decline else None,
                "failure_message": DECLINE_MESSAGES.get(decline or "") if decline else None,
                "livemode": False,
                "metadata": dict(metadata or {}),
                "outcome": {
                    "network_status": "declined_by_network" if decline else "approved_by_network",
                    "reason": decline,
                    "risk_level": "normal",
                    "risk_score": 32,
                    "seller_message": (
                        "The bank did not return any further details with this decline."
                        if decline
                        else "Payment complete."
                    ),
                    "type": "issuer_declined" if decline else "authorized",
                },
                "paid": not decline,
                "payment_intent": pi_id,
                "payment_method": pm["id"],
                "payment_method_details": {
                    "card": {
                        k: pm["card"][k]
                        for k in (
                            "brand",
                            "country",
                            "exp_month",
                            "exp_year",
                            "fingerprint",
                            "funding",
                            "last4",
                            "network",
                        )
                        if k in pm["card"]
                    }
                    | {"network": pm["card"]["brand"]},
                    "type": "card",
                },
                "receipt_email": None,
                "receipt_url": None if decline else f"{self.base_url}/receipts/{pi_id}",
                "refunded": False,
                "status": "failed" if decline else "succeeded",
            }
        )
        error = None
        if decline:
            error = {
                "charge": charge["id"],
                "code": "card_declined",
                "decline_code": decline,
                "doc_url": "https://stripe.com/docs/error-codes/card-declined",
                "message": DECLINE_MESSAGES[decline],
                "payment_method": copy.deepcopy(pm),
                "type": "card_error",
            }
        pi = self._store(
            {
                "id": pi_id,
                "object": "payment_intent",
                "amount": amount,
                "amount_capturable": 0,
                "amount_details": {"tip": {}},
                "amount_received": 0 if decline else amount,
                "application": None,
                "application_fee_amount": None,
                "automatic_payment_methods": None,
                "canceled_at": None,
                "cancellation_reason": None,
                "capture_method": "automatic_async",
                "client_secret": f"{pi_id}_secret_{_rand(25)}",
                "confirmation_method": "automatic",
                "created": now,
                "currency": currency,
                "customer": customer,
                "description": description,
                "last_payment_error": error,
                "latest_charge": charge["id"],
                "livemode": False,
                "metadata": dict(metadata or {}),
                "next_action": None,
                "on_behalf_of": None,
                "payment_method": None if decline else pm["id"],
                "payment_method_configuration_details": None,
                "payment_method_options": {
                    "card": {
                        "installments": None,
                        "mandate_options": None,
                        "network": None,
                        "request_three_d_secure": "automatic",
                    }
                },
                "payment_method_types": ["card"],
                "processing": None,
                "receipt_email": None,
                "review": None,
                "setup_future_usage": None,
                "shipping": None,
                "source": None,
                "statement_descriptor": None,
                "statement_descriptor_suffix": None,
                "status": "requires_payment_method" if decline else "succeeded",
                "transfer_data": None,
                "transfer_group": None,
            }
        )
        return pi, charge

    def _invoice(
        self,
        sub: dict[str, Any],
        reason: str,
        pm: dict[str, Any],
        *,
        period: tuple[int, int],
        extra_lines: list[tuple[dict[str, Any], int]] = (),  # type: ignore[assignment]
        decline: str | None = None,
        decision: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A subscription invoice taken from draft to paid (or open on a decline), with its
        events. ``decision`` is the tax to apply (None: from the customer when the subscription
        has automatic tax)."""
        customer = self.objects[sub["customer"]]
        enabled = bool(sub["automatic_tax"]["enabled"])
        if decision is None:
            decision = self._buyer_decision(customer, enabled)
        invoice = self._blank_invoice(
            customer, sub["currency"], reason, automatic_tax=enabled, period=period
        )
        in_id = invoice["id"]
        lines = []
        for item in sub["items"]["data"]:
            price = self.objects[item["price"]["id"]]
            lines.append(
                self._invoice_line(
                    in_id,
                    price,
                    item["quantity"],
                    sub,
                    item,
                    (item["current_period_start"], item["current_period_end"]),
                    decision,
                )
            )
        now = self.now()
        for price, quantity in extra_lines:
            lines.append(
                self._invoice_line(in_id, price, quantity, sub, None, (now, now), decision)
            )
        self._apply_invoice_discounts(sub, lines, decision)
        invoice["discounts"] = list(sub["discounts"])
        invoice["lines"]["data"] = lines
        invoice["lines"]["total_count"] = len(lines)
        invoice["parent"] = {
            "quote_details": None,
            "subscription_details": {
                "metadata": dict(sub["metadata"]),
                "subscription": sub["id"],
            },
            "type": "subscription_details",
        }
        if decision is not None and decision["exempt"] == "reverse":
            invoice["customer_tax_exempt"] = "reverse"
        self._set_invoice_totals(invoice)
        self._store(invoice)
        self._spend_discounts(sub)

        def pay(total: int) -> dict[str, Any]:
            pi, _charge = self._payment_intent(
                total,
                sub["currency"],
                customer["id"],
                pm,
                description="Subscription creation"
                if reason == "subscription_create"
                else "Subscription update",
                decline=decline,
            )
            return pi

        events = self._invoice_events(invoice, pay, decline=decline)
        return invoice, events

    def _invoice_line(
        self,
        in_id: str,
        price: dict[str, Any],
        quantity: int,
        sub: dict[str, Any] | None,
        item: dict[str, Any] | None,
        period: tuple[int, int],
        decision: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        product = self.objects[price["product"]]
        amount = price["unit_amount"] * quantity
        tax = self._line_tax(amount, price, decision)
        if item is not None:
            rec = price["recurring"]
            every = (
                rec["interval"]
                if rec["interval_count"] == 1
                else (f"{rec['interval_count']} {rec['interval']}s")
            )
            description = (
                f"{quantity} \u00d7 {product['name']} "
                f"(at {_money(price['unit_amount'], price['currency'])} / {every})"
            )
            assert sub is not None
            parent = {
                "invoice_item_details": None,
                "subscription_item_details": {
                    "invoice_item": None,
                    "proration": False,
                    "proration_details": {"credited_items": None},
                    "subscription": sub["id"],
                    "subscription_item": item["id"],
                },
                "type": "subscription_item_details",
            }
        else:
            description = product["name"]
            parent = {
                "invoice_item_details": {
                    "invoice_item": _rand_id("ii"),
                    "proration": False,
                    "proration_details": {"credited_items": None},
                    "subscription": sub["id"] if sub else None,
                },
                "subscription_item_details": None,
                "type": "invoice_item_details",
            }
        return {
            "id": _rand_id("il"),
            "object": "line_item",
            "amount": amount,
            "currency": price["currency"],
            "description": description,
            "discount_amounts": [],
            "discountable": True,
            "discounts": [],
            "invoice": in_id,
            "livemode": False,
            "metadata": {},
            "parent": parent,
            "period": {"end": period[1], "start": period[0]},
            "pretax_credit_amounts": [],
            "pricing": {
                "price_details": {"price": price["id"], "product": product["id"]},
                "type": "price_details",
                "unit_amount_decimal": price["unit_amount_decimal"],
            },
            "quantity": quantity,
            "subscription": sub["id"] if sub else None,
            "taxes": [self._invoice_tax(tax)] if tax else [],
        }

    def _subscription(
        self,
        customer: dict[str, Any],
        items: list[tuple[dict[str, Any], int]],
        pm: dict[str, Any],
        metadata: dict[str, str],
        description: str | None,
    ) -> dict[str, Any]:
        now = self.now()
        sub_id = _rand_id("sub")
        data = []
        for price, quantity in items:
            rec = price["recurring"]
            data.append(
                {
                    "id": _rand_id("si", 14),
                    "object": "subscription_item",
                    "billing_thresholds": None,
                    "created": now,
                    "current_period_end": add_interval(now, rec["interval"], rec["interval_count"]),
                    "current_period_start": now,
                    "discounts": [],
                    "metadata": {},
                    "plan": _plan_of(price),
                    "price": copy.deepcopy(price),
                    "quantity": quantity,
                    "subscription": sub_id,
                    "tax_rates": [],
                }
            )
        return self._store(
            {
                "id": sub_id,
                "object": "subscription",
                "application": None,
                "application_fee_percent": None,
                "automatic_tax": {"disabled_reason": None, "enabled": False, "liability": None},
                "billing_cycle_anchor": now,
                "billing_cycle_anchor_config": None,
                "billing_mode": {"flexible": None, "type": "classic"},
                "billing_thresholds": None,
                "cancel_at": None,
                "cancel_at_period_end": False,
                "canceled_at": None,
                "cancellation_details": {"comment": None, "feedback": None, "reason": None},
                "collection_method": "charge_automatically",
                "created": now,
                "currency": items[0][0]["currency"],
                "customer": customer["id"],
                "days_until_due": None,
                "default_payment_method": pm["id"],
                "default_source": None,
                "default_tax_rates": [],
                "description": description,
                "discounts": [],
                "ended_at": None,
                "invoice_settings": {"account_tax_ids": None, "issuer": {"type": "self"}},
                "items": {
                    "object": "list",
                    "data": data,
                    "has_more": False,
                    "total_count": len(data),
                    "url": f"/v1/subscription_items?subscription={sub_id}",
                },
                "latest_invoice": None,
                "livemode": False,
                "metadata": metadata,
                "next_pending_invoice_item_invoice": None,
                "on_behalf_of": None,
                "pause_collection": None,
                "payment_settings": {
                    "payment_method_options": None,
                    "payment_method_types": None,
                    "save_default_payment_method": "off",
                },
                "pending_invoice_item_interval": None,
                "pending_setup_intent": None,
                "pending_update": None,
                "schedule": None,
                "start_date": now,
                "status": "active",
                "test_clock": None,
                "transfer_data": None,
                "trial_end": None,
                "trial_settings": {"end_behavior": {"missing_payment_method": "create_invoice"}},
                "trial_start": None,
            }
        )

    # ---------------------------------------------------------------- coupons and discounts

    def _item_changes(
        self, p: Params, sub: dict[str, Any]
    ) -> list[tuple[dict[str, Any], dict[str, Any] | None, int | None]]:
        """`items[n][id]` with a new `items[n][price]` and/or `items[n][quantity]`, checked
        as Stripe checks them (the item must be the subscription's, the price recurring and
        of the subscription's currency)."""
        raw = p.data.get("items")
        if raw is None:
            return []
        changes = []
        for n, entry in enumerate(as_list(raw)):
            if not isinstance(entry, dict):
                raise invalid(f"items[{n}]", "Invalid object", "parameter_invalid_object")
            unknown = set(entry) - {"id", "price", "quantity", "metadata", "deleted", "discounts"}
            if unknown:
                raise unknown_param(f"items[{n}][{sorted(unknown)[0]}]")
            ip = Params(entry)
            item_id = ip.str("id")
            if item_id is None:
                raise invalid(
                    f"items[{n}][id]", "The fake Stripe server cannot add subscription items."
                )
            item = next((i for i in sub["items"]["data"] if i["id"] == item_id), None)
            if item is None:
                raise invalid(
                    f"items[{n}][id]",
                    f"Invalid subscription_item id: {item_id}",
                    "resource_missing",
                )
            price = None
            price_id = ip.str("price")
            if price_id is not None:
                price = self._get("price", price_id, param=f"items[{n}][price]", status=400)
                if price["type"] != "recurring":
                    raise invalid(
                        f"items[{n}][price]",
                        "The price specified is set to `type=one_time` but this field only "
                        "accepts prices with `type=recurring`.",
                    )
                if not price["active"]:
                    raise invalid(
                        f"items[{n}][price]",
                        "The price specified is inactive. This field only accepts active prices.",
                    )
                if price["currency"] != sub["currency"]:
                    raise invalid(
                        f"items[{n}][price]",
                        f"The price specified only supports `{price['currency']}`. This "
                        f"doesn't match the expected currency: `{sub['currency']}`.",
                    )
            quantity = ip.int("quantity", minimum=0) if ip.has("quantity") else None
            changes.append((item, price, quantity))
        return changes

    def _coupon(self, p: Params) -> dict[str, Any]:
        duration = p.enum("duration", ["forever", "once", "repeating"]) or "once"
        percent_off = p.data.get("percent_off")
        amount_off = p.int("amount_off", minimum=1) if p.has("amount_off") else None
        if percent_off is not None and amount_off is not None:
            raise invalid(
                "percent_off",
                "You may only specify one of these parameters: amount_off, percent_off.",
            )
        if percent_off is None and amount_off is None:
            raise invalid("amount_off", "You must set either `amount_off` or `percent_off`.")
        percent: float | None = None
        if percent_off is not None:
            try:
                percent = float(str(percent_off))
            except ValueError:
                raise invalid("percent_off", "Invalid decimal: " + str(percent_off)) from None
            if not 0 < percent <= 100:
                raise invalid("percent_off", "Percent off must be greater than 0 and at most 100.")
        currency = p.str("currency")
        if amount_off is not None and not currency:
            raise invalid(
                "currency", "You must specify a `currency` when `amount_off` is set.", None
            )
        months = p.int("duration_in_months", minimum=1)
        if duration == "repeating" and months is None:
            raise missing_param("duration_in_months")
        if duration != "repeating" and months is not None:
            raise invalid(
                "duration_in_months",
                "You can only specify `duration_in_months` when `duration` is `repeating`.",
            )
        coupon_id = p.str("id") or _rand(8)
        if coupon_id in self.objects:
            raise invalid("id", "Coupon already exists.", "resource_already_exists")
        return {
            "id": coupon_id,
            "object": "coupon",
            "amount_off": amount_off,
            "created": self.now(),
            "currency": currency.lower() if currency and amount_off is not None else None,
            "duration": duration,
            "duration_in_months": months,
            "livemode": False,
            "max_redemptions": p.int("max_redemptions", minimum=1),
            "metadata": p.metadata(),
            "name": p.str("name"),
            "percent_off": percent,
            "redeem_by": p.int("redeem_by"),
            "times_redeemed": 0,
            "valid": True,
        }

    def _discount_coupon(self, p: Params, name: str) -> dict[str, Any] | None:
        """The coupon of `discounts[0][coupon]` (one discount at most here), checked."""
        raw = p.data.get(name)
        if raw in (None, "", []):
            return None
        entries = as_list(raw)
        if len(entries) > 1:
            raise invalid(name, "You may only specify one discount.")
        entry = entries[0]
        if not isinstance(entry, dict):
            raise invalid(f"{name}[0]", "Invalid object", "parameter_invalid_object")
        unknown = set(entry) - {"coupon", "promotion_code", "discount"}
        if unknown:
            raise unknown_param(f"{name}[0][{sorted(unknown)[0]}]")
        coupon_id = entry.get("coupon")
        if not isinstance(coupon_id, str) or not coupon_id:
            raise invalid(f"{name}[0][coupon]", "The fake supports only coupons as discounts.")
        coupon: dict[str, Any] = self._get(
            "coupon", coupon_id, param=f"{name}[0][coupon]", status=400
        )
        if not coupon["valid"]:
            raise invalid(f"{name}[0][coupon]", f"Coupon expired: {coupon_id}")
        return coupon

    def _session_discount(self, session: dict[str, Any], coupon: dict[str, Any]) -> None:
        """A session's line items and totals with the coupon taken off (before tax)."""
        lines = self._line_items[session["id"]]
        left = coupon["amount_off"] or 0
        for li in lines:
            if coupon["percent_off"] is not None:
                off = _div_half_up(
                    round(li["amount_subtotal"] * coupon["percent_off"] * 100), 10000
                )
            else:
                off = min(left, li["amount_subtotal"])
                left -= off
            li["amount_discount"] = off
            li["amount_total"] = li["amount_subtotal"] - off
        discount = sum(li["amount_discount"] for li in lines)
        session["total_details"]["amount_discount"] = discount
        session["amount_total"] = session["amount_subtotal"] - discount

    def _discount(self, coupon: dict[str, Any], sub: dict[str, Any]) -> dict[str, Any]:
        now = self.now()
        end = None
        if coupon["duration"] == "repeating":
            end = add_interval(now, "month", coupon["duration_in_months"])
        return self._store(
            {
                "id": _rand_id("di"),
                "object": "discount",
                "checkout_session": None,
                "customer": sub["customer"],
                "customer_account": None,
                "end": end,
                "invoice": None,
                "invoice_item": None,
                "promotion_code": None,
                "source": {"coupon": coupon["id"], "type": "coupon"},
                "start": now,
                "subscription": sub["id"],
                "subscription_item": None,
            }
        )

    def _apply_invoice_discounts(
        self, sub: dict[str, Any], lines: list[dict[str, Any]], decision: dict[str, Any] | None
    ) -> None:
        """The subscription's discounts taken off its invoice's lines, their tax on what is
        left (Stripe taxes the discounted amount)."""
        now = self.now()
        for di in list(sub["discounts"]):
            discount = self.objects[di]
            if discount["end"] is not None and discount["end"] <= now:
                sub["discounts"].remove(di)  # a repeating coupon's months are over
                continue
            coupon = self.objects[discount["source"]["coupon"]]
            left = coupon["amount_off"] or 0
            for line in lines:
                already = sum(e["amount"] for e in line["discount_amounts"])
                base = line["amount"] - already
                if coupon["percent_off"] is not None:
                    off = _div_half_up(round(base * coupon["percent_off"] * 100), 10000)
                else:
                    off = min(left, base)
                    left -= off
                line["discount_amounts"].append({"amount": off, "discount": di})
                line["discounts"].append(di)
        for line in lines:
            off = sum(e["amount"] for e in line["discount_amounts"])
            if off and line["taxes"]:
                price = self.objects[line["pricing"]["price_details"]["price"]]
                tax = self._line_tax(line["amount"] - off, price, decision)
                line["taxes"] = [self._invoice_tax(tax)] if tax else []

    def _spend_discounts(self, sub: dict[str, Any]) -> None:
        """A `once` coupon's discount ends with the invoice it was taken off."""
        sub["discounts"] = [
            di
            for di in sub["discounts"]
            if self.objects[self.objects[di]["source"]["coupon"]]["duration"] != "once"
        ]

    # ---------------------------------------------------------------- tax

    def _registration(
        self,
        country: str,
        type_: str,
        active_from: int,
        expires_at: int | None,
        standard: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        option: dict[str, Any] = {"type": type_}
        if type_ == "standard":
            option["standard"] = standard or {"place_of_supply_scheme": "standard"}
        return {
            "id": _rand_id("taxreg"),
            "object": "tax.registration",
            "active_from": active_from,
            "country": country,
            "country_options": {country.lower(): option},
            "created": self.now(),
            "expires_at": expires_at,
            "livemode": False,
            "status": self._registration_status(active_from, expires_at),
        }

    def _registration_status(self, active_from: int, expires_at: int | None) -> str:
        now = self.now()
        if expires_at is not None and expires_at <= now:
            return "expired"
        return "scheduled" if active_from > now else "active"

    def _registered(self, country: str, type_: str | None = None) -> bool:
        for reg in self._all("tax.registration"):
            reg["status"] = self._registration_status(reg["active_from"], reg["expires_at"])
            option = next(iter(reg["country_options"].values()))
            if (
                reg["status"] == "active"
                and reg["country"] == country
                and (type_ is None or option["type"] == type_)
            ):
                return True
        return False

    def _tax_rate(self, country: str, rate_bp: int, inclusive: bool) -> str:
        """The id of Stripe Tax's rate object for a country, rate and behaviour (made once)."""
        key = (country, rate_bp, inclusive)
        if key not in self._tax_rates:
            rate_id = _rand_id("txr")
            percentage = rate_bp / 100
            self._store(
                {
                    "id": rate_id,
                    "object": "tax_rate",
                    "active": True,
                    "country": country,
                    "created": self.now(),
                    "description": None,
                    "display_name": "VAT" if country in EU_RATES or rate_bp else "Sales tax",
                    "effective_percentage": percentage,
                    "flat_amount": None,
                    "inclusive": inclusive,
                    "jurisdiction": country,
                    "jurisdiction_level": "country",
                    "livemode": False,
                    "metadata": {},
                    "percentage": percentage,
                    "rate_type": "percentage",
                    "state": None,
                    "tax_type": "vat" if country in EU_RATES or country == "GB" else "sales_tax",
                }
            )
            self._tax_rates[key] = rate_id
        return self._tax_rates[key]

    def _tax_decision(
        self, country: str | None, tax_ids: list[dict[str, Any]], tax_exempt: str
    ) -> dict[str, Any]:
        """What Stripe Tax charges a buyer: rate (bp), taxability reason, the country whose rate
        applies, and the tax_exempt the invoice shows ("reverse" under reverse charge)."""
        country = (country or ACCOUNT_COUNTRY).upper()
        if tax_exempt == "exempt":
            return {"rate": 0, "reason": "customer_exempt", "country": country, "exempt": "exempt"}
        if country not in EU_RATES:
            return {"rate": 0, "reason": "not_collecting", "country": country, "exempt": tax_exempt}
        verified_eu = any(
            t["type"] == "eu_vat"
            and (t.get("verification") or {}).get("status") == "verified"
            and _tax_id_country("eu_vat", t["value"]) in EU_RATES
            for t in tax_ids
        )
        if country != ACCOUNT_COUNTRY and (verified_eu or tax_exempt == "reverse"):
            return {"rate": 0, "reason": "reverse_charge", "country": country, "exempt": "reverse"}
        oss = any(self._registered(c, "oss_union") for c in EU_RATES)
        if country != ACCOUNT_COUNTRY and (oss or self._registered(country)):
            rate_country = country  # One-Stop-Shop (or a registration there): their rate
        elif self._registered(ACCOUNT_COUNTRY):
            rate_country = ACCOUNT_COUNTRY  # below the threshold: the seller's country's rate
        else:
            return {"rate": 0, "reason": "not_collecting", "country": country, "exempt": tax_exempt}
        return {
            "rate": EU_RATES[rate_country],
            "reason": "standard_rated",
            "country": rate_country,
            "exempt": tax_exempt,
        }

    @staticmethod
    def _behavior(price: dict[str, Any]) -> str:
        if price["tax_behavior"] in ("inclusive", "exclusive"):
            return str(price["tax_behavior"])
        return "inclusive" if price["currency"] in INCLUSIVE_CURRENCIES else "exclusive"

    def _line_tax(
        self, amount: int, price: dict[str, Any], decision: dict[str, Any] | None
    ) -> dict[str, Any] | None:
        """One line's tax: ``{amount, behavior, rate_id, reason, taxable_amount}``, or None."""
        if decision is None:
            return None
        behavior = self._behavior(price)
        rate = decision["rate"]
        if behavior == "inclusive":
            tax = _div_half_up(amount * rate, 10000 + rate)
            taxable = amount - tax
        else:
            tax = _div_half_up(amount * rate, 10000)
            taxable = amount
        return {
            "amount": tax,
            "behavior": behavior,
            "rate_id": self._tax_rate(decision["country"], rate, behavior == "inclusive"),
            "reason": decision["reason"],
            "taxable_amount": taxable,
        }

    @staticmethod
    def _invoice_tax(tax: dict[str, Any]) -> dict[str, Any]:
        """A tax as invoices, invoice lines and credit notes show it (``total_taxes[]``)."""
        return {
            "amount": tax["amount"],
            "tax_behavior": tax["behavior"],
            "tax_rate_details": {"tax_rate": tax["rate_id"]},
            "taxability_reason": tax["reason"],
            "taxable_amount": tax["taxable_amount"],
            "type": "tax_rate_details",
        }

    @staticmethod
    def _sum_taxes(taxes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Invoice-style taxes summed per (rate, behaviour, reason)."""
        totals: dict[tuple[str, str, str], dict[str, Any]] = {}
        for tax in taxes:
            key = (
                tax["tax_rate_details"]["tax_rate"],
                tax["tax_behavior"],
                tax["taxability_reason"],
            )
            if key not in totals:
                totals[key] = copy.deepcopy(tax)
            else:
                totals[key]["amount"] += tax["amount"]
                totals[key]["taxable_amount"] += tax["taxable_amount"]
        return list(totals.values())

    def _apply_session_tax(self, session: dict[str, Any], decision: dict[str, Any] | None) -> None:
        """Line items, amounts and the tax breakdown of a session under ``decision``."""
        subtotal = exclusive = tax_total = 0
        breakdown: list[dict[str, Any]] = []
        for li in self._line_items[session["id"]]:
            price = self.objects.get(li["price"]["id"], li["price"])
            amount = li["amount_subtotal"]
            tax = self._line_tax(amount - li["amount_discount"], price, decision)
            li["amount_tax"] = tax["amount"] if tax else 0
            li["amount_total"] = (
                amount
                - li["amount_discount"]
                + (tax["amount"] if tax and tax["behavior"] == "exclusive" else 0)
            )
            li["taxes"] = (
                [
                    {
                        "amount": tax["amount"],
                        "rate": self._view(self.objects[tax["rate_id"]]),
                        "taxability_reason": tax["reason"],
                        "taxable_amount": tax["taxable_amount"],
                    }
                ]
                if tax
                else []
            )
            breakdown += copy.deepcopy(li["taxes"])
            subtotal += amount
            if tax:
                tax_total += tax["amount"]
                if tax["behavior"] == "exclusive":
                    exclusive += tax["amount"]
        merged: dict[str, dict[str, Any]] = {}
        for entry in breakdown:
            key = entry["rate"]["id"] + entry["taxability_reason"]
            if key in merged:
                merged[key]["amount"] += entry["amount"]
                merged[key]["taxable_amount"] += entry["taxable_amount"]
            else:
                merged[key] = entry
        self._breakdowns[session["id"]] = list(merged.values())
        session["amount_subtotal"] = subtotal
        session["amount_total"] = subtotal - session["total_details"]["amount_discount"] + exclusive
        session["total_details"]["amount_tax"] = tax_total

    # ---------------------------------------------------------------- tax IDs

    def _tax_id(
        self, customer_id: str | None, type_: str | None, value: str | None, *, param: str = ""
    ) -> dict[str, Any]:
        if type_ is None:
            raise missing_param(param + "type" if not param else f"{param}[type]")
        if value is None:
            raise missing_param("value" if not param else f"{param}[value]")
        if type_ not in TAX_ID_TYPES:
            raise invalid(
                f"{param}[type]" if param else "type",
                f"Invalid type: must be one of {', '.join(TAX_ID_TYPES)}",
            )
        value = _normalise_tax_id(value)
        if not _tax_id_valid(type_, value):
            raise invalid(
                f"{param}[value]" if param else "value",
                f"Invalid value for {type_}.",
                "tax_id_invalid",
            )
        return {
            "id": _rand_id("txi"),
            "object": "tax_id",
            "country": _tax_id_country(type_, value),
            "created": self.now(),
            "customer": customer_id,
            "customer_account": None,
            "livemode": False,
            "owner": {
                "account": None,
                "application": None,
                "customer": customer_id,
                "customer_account": None,
                "type": "customer",
            }
            if customer_id
            else None,
            "type": type_,
            "value": value,
            "verification": {"status": "pending", "verified_address": None, "verified_name": None}
            if type_ in ("eu_vat", "gb_vat", "au_abn")
            else {"status": "unavailable", "verified_address": None, "verified_name": None},
        }

    def _add_tax_id(
        self, customer: dict[str, Any], type_: str | None, value: str | None, info: Any = None
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Attach a tax ID; Stripe's test-mode verification follows at once (magic values:
        ``111111111`` -> unverified, ``222222222`` -> stays pending, others -> verified). Returns
        the ID as created (pending) and the events."""
        tax_id = self._store(self._tax_id(customer["id"], type_, value))
        created = self._view(tax_id)
        events = [self._event("customer.tax_id.created", tax_id, None, info)]
        if tax_id["verification"]["status"] == "pending" and "222222222" not in tax_id["value"]:
            before = copy.deepcopy(tax_id["verification"])
            if "111111111" in tax_id["value"]:
                tax_id["verification"]["status"] = "unverified"
            else:
                tax_id["verification"] = {
                    "status": "verified",
                    "verified_address": _one_line(customer.get("address")),
                    "verified_name": customer.get("business_name") or customer.get("name"),
                }
            events.append(self._event("customer.tax_id.updated", tax_id, {"verification": before}))
        return created, events

    def _customer_tax_ids(self, customer_id: str | None) -> list[dict[str, Any]]:
        return [
            t
            for t in reversed(self._all("tax_id"))
            if customer_id is not None and t["customer"] == customer_id
        ]

    # ---------------------------------------------------------------- invoices

    def _next_number(self) -> str:
        self._invoice_sequence += 1
        return f"{INVOICE_PREFIX}-{self._invoice_sequence:04d}"

    def _finalize(self, invoice: dict[str, Any]) -> None:
        """Draft -> open: number, links, and the customer's details frozen as they are now."""
        now = self.now()
        customer = self.objects.get(invoice["customer"] or "") or {}
        invoice["number"] = self._next_number()
        invoice["status"] = "open"
        invoice["status_transitions"]["finalized_at"] = now
        invoice["effective_at"] = now
        invoice["hosted_invoice_url"] = f"{self.base_url}/invoices/{invoice['id']}"
        invoice["invoice_pdf"] = f"{self.base_url}/invoices/{invoice['id']}/pdf"
        invoice["customer_name"] = customer.get("name")
        invoice["customer_email"] = customer.get("email")
        invoice["customer_address"] = copy.deepcopy(customer.get("address"))
        invoice["customer_tax_ids"] = [
            {"type": t["type"], "value": t["value"]}
            for t in self._customer_tax_ids(customer.get("id"))
        ]
        if invoice["customer_tax_exempt"] != "reverse":
            invoice["customer_tax_exempt"] = customer.get("tax_exempt", "none")

    def _set_invoice_totals(self, invoice: dict[str, Any]) -> None:
        lines = invoice["lines"]["data"]
        taxes = [t for line in lines for t in line["taxes"]]
        subtotal = sum(line["amount"] for line in lines)
        inclusive = sum(t["amount"] for t in taxes if t["tax_behavior"] == "inclusive")
        exclusive = sum(t["amount"] for t in taxes if t["tax_behavior"] == "exclusive")
        discounts: dict[str, int] = {}
        for line in lines:
            for entry in line.get("discount_amounts") or []:
                discounts[entry["discount"]] = discounts.get(entry["discount"], 0) + entry["amount"]
        discounted = sum(discounts.values())
        total = subtotal - discounted + exclusive
        invoice["total_discount_amounts"] = [
            {"amount": amount, "discount": di} for di, amount in discounts.items()
        ]
        invoice.update(
            subtotal=subtotal,
            subtotal_excluding_tax=subtotal - inclusive,
            total=total,
            total_excluding_tax=total - inclusive - exclusive,
            total_taxes=self._sum_taxes(taxes),
            amount_due=total,
            amount_remaining=total,
        )

    def _blank_invoice(
        self,
        customer: dict[str, Any],
        currency: str,
        reason: str,
        *,
        automatic_tax: bool,
        period: tuple[int, int],
    ) -> dict[str, Any]:
        now = self.now()
        in_id = _rand_id("in")
        settings = customer.get("invoice_settings") or {}
        return {
            "id": in_id,
            "object": "invoice",
            "account_country": ACCOUNT_COUNTRY,
            "account_name": ACCOUNT_NAME,
            "account_tax_ids": None,
            "amount_due": 0,
            "amount_overpaid": 0,
            "amount_paid": 0,
            "amount_remaining": 0,
            "amount_shipping": 0,
            "application": None,
            "attempt_count": 0,
            "attempted": False,
            "auto_advance": True,
            "automatic_tax": {
                "disabled_reason": None,
                "enabled": automatic_tax,
                "liability": {"account": None, "type": "self"} if automatic_tax else None,
                "provider": "stripe" if automatic_tax else None,
                "status": "complete" if automatic_tax else None,
            },
            "automatically_finalizes_at": None,
            "billing_reason": reason,
            "collection_method": "charge_automatically",
            "confirmation_secret": None,
            "created": now,
            "currency": currency,
            "custom_fields": copy.deepcopy(settings.get("custom_fields")),
            "customer": customer["id"],
            "customer_address": None,
            "customer_email": customer["email"],
            "customer_name": customer["name"],
            "customer_phone": None,
            "customer_shipping": None,
            "customer_tax_exempt": customer.get("tax_exempt", "none"),
            "customer_tax_ids": [],
            "default_payment_method": None,
            "default_source": None,
            "default_tax_rates": [],
            "description": None,
            "discounts": [],
            "due_date": None,
            "effective_at": None,
            "ending_balance": None,
            "footer": settings.get("footer"),
            "from_invoice": None,
            "hosted_invoice_url": None,
            "invoice_pdf": None,
            "issuer": {"type": "self"},
            "last_finalization_error": None,
            "latest_revision": None,
            "lines": {
                "object": "list",
                "data": [],
                "has_more": False,
                "total_count": 0,
                "url": f"/v1/invoices/{in_id}/lines",
            },
            "livemode": False,
            "metadata": {},
            "next_payment_attempt": None,
            "number": None,
            "on_behalf_of": None,
            "parent": None,
            "payment_settings": {
                "default_mandate": None,
                "payment_method_options": None,
                "payment_method_types": None,
            },
            "period_end": period[1],
            "period_start": period[0],
            "post_payment_credit_notes_amount": 0,
            "pre_payment_credit_notes_amount": 0,
            "receipt_number": None,
            "rendering": None,
            "shipping_cost": None,
            "shipping_details": None,
            "starting_balance": 0,
            "statement_descriptor": None,
            "status": "draft",
            "status_transitions": {
                "finalized_at": None,
                "marked_uncollectible_at": None,
                "paid_at": None,
                "voided_at": None,
            },
            "subtotal": 0,
            "subtotal_excluding_tax": 0,
            "test_clock": None,
            "total": 0,
            "total_discount_amounts": [],
            "total_excluding_tax": 0,
            "total_pretax_credit_amounts": [],
            "total_taxes": [],
            "webhooks_delivered_at": None,
        }

    def _settle(
        self,
        invoice: dict[str, Any],
        pi: dict[str, Any],
        *,
        paid: bool,
    ) -> None:
        """Record the payment attempt of a finalized invoice."""
        now = self.now()
        total = invoice["total"]
        invoice.update(
            amount_paid=total if paid else 0,
            amount_remaining=0 if paid else total,
            attempt_count=invoice["attempt_count"] + 1,
            attempted=True,
            auto_advance=not paid,
            ending_balance=0,
            next_payment_attempt=None if paid else now + 3 * DAY,
            status="paid" if paid else "open",
            webhooks_delivered_at=now,
        )
        invoice["status_transitions"]["paid_at"] = now if paid else None
        self._invoice_payments[invoice["id"]] = [
            {
                "id": _rand_id("inpay"),
                "object": "invoice_payment",
                "amount_paid": total if paid else None,
                "amount_requested": total,
                "created": now,
                "currency": invoice["currency"],
                "invoice": invoice["id"],
                "is_default": True,
                "livemode": False,
                "payment": {"type": "payment_intent", "payment_intent": pi["id"]},
                "status": "paid" if paid else "open",
                "status_transitions": {"canceled_at": None, "paid_at": now if paid else None},
            }
        ]

    def _invoice_events(
        self, invoice: dict[str, Any], pi_maker: Callable[[int], Any], *, decline: str | None = None
    ) -> list[dict[str, Any]]:
        """Created (draft) -> finalized -> paid (or payment_failed): the events Stripe sends."""
        events = [self._event("invoice.created", invoice)]
        self._finalize(invoice)
        events.append(self._event("invoice.finalized", invoice))
        pi = pi_maker(invoice["total"])
        self._settle(invoice, pi, paid=not decline)
        if decline:
            events.append(self._event("invoice.payment_failed", invoice))
        else:
            events.append(self._event("invoice.paid", invoice))
            events.append(self._event("invoice.payment_succeeded", invoice))
        return events

    def _buyer_decision(
        self, customer: dict[str, Any] | None, enabled: bool
    ) -> dict[str, Any] | None:
        if not enabled:
            return None
        customer = customer or {}
        return self._tax_decision(
            (customer.get("address") or {}).get("country"),
            self._customer_tax_ids(customer.get("id")),
            customer.get("tax_exempt", "none"),
        )

    # ---------------------------------------------------------------- refunds, credit notes

    def _refund(
        self,
        charge: dict[str, Any],
        amount: int | None,
        *,
        reason: str | None = None,
        metadata: dict[str, str] | None = None,
        info: Any = None,
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        left = charge["amount"] - charge["amount_refunded"]
        if charge["refunded"] or left <= 0:
            raise invalid(
                "charge",
                f"Charge {charge['id']} has already been refunded.",
                "charge_already_refunded",
            )
        amount = left if amount is None else amount
        if amount <= 0:
            raise invalid(
                "amount", "Refund amount must be greater than 0.", "parameter_invalid_integer"
            )
        if amount > left:
            raise invalid(
                "amount",
                f"Refund amount ({_money(amount, charge['currency'])}) is greater than unrefunded "
                f"amount on charge ({_money(left, charge['currency'])})",
                "amount_too_large",
            )
        refund = self._store(
            {
                "id": "re_3" + _rand(23),
                "object": "refund",
                "amount": amount,
                "balance_transaction": _rand_id("txn"),
                "charge": charge["id"],
                "created": self.now(),
                "currency": charge["currency"],
                "customer": charge["customer"],
                "customer_account": None,
                "description": None,
                "destination_details": None,
                "failure_balance_transaction": None,
                "failure_reason": None,
                "instructions_email": None,
                "metadata": dict(metadata or {}),
                "next_action": None,
                "payment_intent": charge["payment_intent"],
                "payment_method": charge["payment_method"],
                "pending_reason": None,
                "presentment_details": None,
                "reason": reason,
                "receipt_number": None,
                "source_transfer_reversal": None,
                "status": "succeeded",
                "transfer_reversal": None,
            }
        )
        before = self._view(charge)
        charge["amount_refunded"] += amount
        charge["refunded"] = charge["amount_refunded"] >= charge["amount"]
        charge.setdefault("_refunds", []).insert(0, refund["id"])
        events = [
            self._event("refund.created", refund, None, info),
            self._event("charge.refunded", charge, self._diff(before, self._view(charge)), info),
        ]
        return refund, events

    def _charge_of(self, p: Params) -> dict[str, Any]:
        charge_id, pi_id = p.str("charge"), p.str("payment_intent")
        if charge_id and pi_id:
            raise invalid(
                "payment_intent",
                "You may only specify one of these parameters: charge, payment_intent.",
            )
        if charge_id:
            return self._get("charge", charge_id, param="charge", status=400)  # type: ignore[no-any-return]
        if pi_id:
            pi = self._get("payment_intent", pi_id, param="payment_intent", status=400)
            if pi["status"] != "succeeded" or not pi["latest_charge"]:
                raise invalid(
                    "payment_intent",
                    f"This PaymentIntent ({pi_id}) does not have a successful charge to refund.",
                )
            return self.objects[pi["latest_charge"]]  # type: ignore[no-any-return]
        raise invalid(
            None,  # type: ignore[arg-type]
            "One of the following params should be provided for this request: "
            "payment_intent or charge.",
            "parameter_missing",
        )

    def _invoice_charge(self, invoice: dict[str, Any]) -> dict[str, Any] | None:
        for payment in self._invoice_payments.get(invoice["id"], []):
            pi = self.objects.get(payment["payment"]["payment_intent"] or "")
            if pi and pi["status"] == "succeeded":
                return self.objects.get(pi["latest_charge"])
        return None

    def _credit_note(self, p: Params, info: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        invoice_id = p.str("invoice", required=True) or ""
        invoice = self._get("invoice", invoice_id, param="invoice", status=400)
        if invoice["status"] not in ("open", "paid"):
            raise invalid(
                "invoice",
                f"Invoice {invoice_id} is {invoice['status']}: credit notes can only be issued for "
                "open or paid invoices.",
            )
        reason = p.enum(
            "reason", ["duplicate", "fraudulent", "order_change", "product_unsatisfactory"]
        )
        inv_lines = {line["id"]: line for line in invoice["lines"]["data"]}
        lines: list[dict[str, Any]] = []
        raw_lines = as_list(p.data.get("lines"))
        amount_param = p.int("amount", minimum=0)
        cn_id = _rand_id("cn")

        def line(
            amount: int,
            source: dict[str, Any] | None,
            description: str | None,
            quantity: int | None,
        ) -> dict[str, Any]:
            taxes = []
            for tax in (source or {}).get("taxes", []):
                share = (
                    _div_half_up(amount * tax["amount"], source["amount"])
                    if source and source["amount"]
                    else 0
                )  # type: ignore[index]
                taxable = (
                    _div_half_up(amount * tax["taxable_amount"], source["amount"])
                    if source and source["amount"]
                    else 0
                )  # type: ignore[index]
                taxes.append({**copy.deepcopy(tax), "amount": share, "taxable_amount": taxable})
            return {
                "id": _rand_id("cnli"),
                "object": "credit_note_line_item",
                "amount": amount,
                "description": description or (source or {}).get("description"),
                "discount_amount": 0,
                "discount_amounts": [],
                "invoice_line_item": source["id"] if source else None,
                "livemode": False,
                "metadata": {},
                "pretax_credit_amounts": [],
                "quantity": quantity,
                "tax_rates": [],
                "taxes": taxes,
                "type": "invoice_line_item" if source else "custom_line_item",
                "unit_amount": None if source else amount // max(quantity or 1, 1),
                "unit_amount_decimal": None,
            }

        if raw_lines:
            for i, raw in enumerate(raw_lines):
                if not isinstance(raw, dict):
                    raise invalid(f"lines[{i}]", "Invalid object", "parameter_invalid_object")
                lp = Params(raw)
                kind = lp.enum("type", ["custom_line_item", "invoice_line_item"], required=True)
                if kind == "invoice_line_item":
                    li_id = lp.str("invoice_line_item", required=True) or ""
                    source = inv_lines.get(li_id)
                    if source is None:
                        raise missing(
                            "invoice line item",
                            li_id,
                            param=f"lines[{i}][invoice_line_item]",
                            status=400,
                        )
                    quantity = lp.int("quantity", minimum=0)
                    amount = lp.int("amount", minimum=0)
                    if amount is None:
                        amount = (
                            source["amount"] * quantity // max(source["quantity"] or 1, 1)
                            if quantity is not None
                            else source["amount"]
                        )
                    lines.append(line(amount, source, lp.str("description"), quantity))
                else:
                    unit = lp.int("unit_amount", minimum=0)
                    if unit is None:
                        raise missing_param(f"lines[{i}][unit_amount]")
                    quantity = lp.int("quantity", minimum=1) or 1
                    lines.append(
                        line(unit * quantity, None, lp.str("description", required=True), quantity)
                    )
        elif amount_param is not None:
            # An amount (incl. tax) spread over the invoice's lines in proportion.
            total = invoice["total"] or 1
            left = amount_param
            data = invoice["lines"]["data"]
            for i, source in enumerate(data):
                gross = source["amount"] + sum(
                    t["amount"] for t in source["taxes"] if t["tax_behavior"] == "exclusive"
                )
                share = left if i == len(data) - 1 else _div_half_up(amount_param * gross, total)
                left -= share
                # Back to the line's own terms (exclusive taxes come on top of the line amount).
                excl = sum(t["amount"] for t in source["taxes"] if t["tax_behavior"] == "exclusive")
                line_amount = (
                    _div_half_up(share * source["amount"], source["amount"] + excl)
                    if excl
                    else share
                )
                lines.append(line(line_amount, source, None, None))
        else:
            raise invalid(
                None,  # type: ignore[arg-type]
                "You must pass either `amount` or `lines` to create a credit note.",
                "parameter_missing",
            )
        taxes = [t for cl in lines for t in cl["taxes"]]
        subtotal = sum(cl["amount"] for cl in lines)
        inclusive = sum(t["amount"] for t in taxes if t["tax_behavior"] == "inclusive")
        exclusive = sum(t["amount"] for t in taxes if t["tax_behavior"] == "exclusive")
        total = subtotal + exclusive
        if amount_param is not None and raw_lines and amount_param != total:
            raise invalid(
                "amount", f"The amount ({amount_param}) must equal the sum of the lines ({total})."
            )
        credited = (
            invoice["post_payment_credit_notes_amount"] + invoice["pre_payment_credit_notes_amount"]
        )
        if total > invoice["total"] - credited:
            raise invalid(
                "amount",
                f"The credit note amount ({_money(total, invoice['currency'])}) cannot exceed the "
                "amount remaining on the invoice "
                f"({_money(invoice['total'] - credited, invoice['currency'])}).",
            )
        post = invoice["status"] == "paid"
        refund_amount = p.int("refund_amount", minimum=0) or 0
        credit_amount = p.int("credit_amount", minimum=0) or 0
        out_of_band = p.int("out_of_band_amount", minimum=0)
        linked = [
            (Params(r).str("refund") or "", Params(r).int("amount_refunded") or 0)
            for r in as_list(p.data.get("refunds"))
            if isinstance(r, dict)
        ]
        given = refund_amount + credit_amount + (out_of_band or 0) + sum(a for _, a in linked)
        if post and given and given != total:
            raise invalid(
                "refund_amount",
                f"The sum of credit amount, refund amount and out of band amount "
                f"({_money(given, invoice['currency'])}) must equal the credit note amount "
                f"({_money(total, invoice['currency'])}).",
            )
        if post and not given:
            credit_amount = total
        events: list[dict[str, Any]] = []
        refunds: list[dict[str, Any]] = []
        if refund_amount:
            charge = self._invoice_charge(invoice)
            if charge is None:
                raise invalid("refund_amount", "This invoice has no payment to refund.")
            refund, refund_events = self._refund(charge, refund_amount, info=info)
            events += refund_events
            refunds.append(
                {
                    "amount_refunded": refund_amount,
                    "payment_record_refund": None,
                    "refund": refund["id"],
                    "type": "refund",
                }
            )
        for refund_id, amount in linked:
            self._get("refund", refund_id, param="refunds", status=400)
            refunds.append(
                {
                    "amount_refunded": amount,
                    "payment_record_refund": None,
                    "refund": refund_id,
                    "type": "refund",
                }
            )
        count = sum(1 for c in self._all("credit_note") if c["invoice"] == invoice_id) + 1
        now = self.now()
        credit_note = self._store(
            {
                "id": cn_id,
                "object": "credit_note",
                "amount": total,
                "amount_shipping": 0,
                "created": now,
                "currency": invoice["currency"],
                "customer": invoice["customer"],
                "customer_account": None,
                "customer_balance_transaction": _rand_id("cbtxn") if credit_amount else None,
                "discount_amount": 0,
                "discount_amounts": [],
                "effective_at": p.int("effective_at") or now,
                "invoice": invoice_id,
                "lines": {
                    "object": "list",
                    "data": lines,
                    "has_more": False,
                    "total_count": len(lines),
                    "url": f"/v1/credit_notes/{cn_id}/lines",
                },
                "livemode": False,
                "memo": p.str("memo"),
                "metadata": p.metadata(),
                "number": f"{invoice['number']}-CN-{count:02d}",
                "out_of_band_amount": out_of_band,
                "pdf": f"{self.base_url}/credit_notes/{cn_id}/pdf",
                "post_payment_amount": total if post else 0,
                "pre_payment_amount": 0 if post else total,
                "pretax_credit_amounts": [],
                "reason": reason,
                "refunds": refunds,
                "shipping_cost": None,
                "status": "issued",
                "subtotal": subtotal,
                "subtotal_excluding_tax": subtotal - inclusive,
                "total": total,
                "total_excluding_tax": total - inclusive - exclusive,
                "total_taxes": self._sum_taxes(taxes),
                "type": "post_payment" if post else "pre_payment",
                "voided_at": None,
            }
        )
        if post:
            invoice["post_payment_credit_notes_amount"] += total
        else:
            invoice["pre_payment_credit_notes_amount"] += total
            invoice["amount_due"] -= total
            invoice["amount_remaining"] -= total
        events.insert(0, self._event("credit_note.created", credit_note, None, info))
        return credit_note, events

    def _void_credit_note(
        self, cn_id: str, info: Any
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        credit_note = self._get("credit_note", cn_id)
        if credit_note["status"] == "void":
            raise invalid("id", "This credit note has already been voided.")
        invoice = self.objects[credit_note["invoice"]]
        credit_note["status"] = "void"
        credit_note["voided_at"] = self.now()
        if credit_note["type"] == "post_payment":
            invoice["post_payment_credit_notes_amount"] -= credit_note["total"]
        else:
            invoice["pre_payment_credit_notes_amount"] -= credit_note["total"]
            invoice["amount_due"] += credit_note["total"]
            invoice["amount_remaining"] += credit_note["total"]
        return credit_note, [self._event("credit_note.voided", credit_note, None, info)]

    # ---------------------------------------------------------------- flows

    def _complete(
        self,
        cs_id: str,
        card: str,
        email: str | None = None,
        name: str | None = None,
        **details: Any,
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Pay an open session. Raises StripeError (402 card_error on a decline, 400 for a
        missing or invalid billing detail). ``details``: see :meth:`pay`."""
        unknown = set(details) - PAY_DETAILS
        if unknown:
            raise TypeError(f"unknown pay() arguments: {', '.join(sorted(unknown))}")
        with self._lock:
            session = self._get("checkout.session", cs_id)
            if session["status"] != "open":
                raise invalid(
                    "id",
                    f"This Checkout Session is no longer active (its status is "
                    f"'{session['status']}').",
                    "checkout_session_not_active",
                )
            number = "".join(ch for ch in card if ch.isdigit())
            if not 13 <= len(number) <= 19 or not _luhn_ok(number):
                raise StripeError(
                    402,
                    "Your card number is incorrect.",
                    type="card_error",
                    code="incorrect_number",
                    param="number",
                )
            brand, decline = TEST_CARDS.get(number, (_brand_of(number), None))
            if decline:
                raise StripeError(
                    402,
                    DECLINE_MESSAGES[decline],
                    type="card_error",
                    code="card_declined",
                    decline_code=decline,
                )
            customer = self.objects.get(session["customer"] or "")
            email = (customer or {}).get("email") or session["customer_email"] or email
            name = name or (customer or {}).get("name")
            automatic_tax = bool(session["automatic_tax"]["enabled"])
            address = self._collected_address(session, details)
            business_name = details.get("business_name") or None
            tax_value = details.get("tax_id") or None
            collection = session["tax_id_collection"] or {"enabled": False, "required": "never"}
            if (business_name or tax_value) and not collection["enabled"]:
                raise invalid(
                    "tax_id",
                    "This Checkout Session does not collect tax IDs "
                    "(tax_id_collection[enabled] is false).",
                )
            tax_type = details.get("tax_id_type") or (
                _tax_id_type_for(_normalise_tax_id(tax_value)) if tax_value else None
            )
            if (
                collection["required"] == "if_supported"
                and not tax_value
                and address is not None
                and address["country"] in TAX_ID_COUNTRIES
            ):
                raise invalid("tax_id", "Please provide a tax ID.", "tax_id_required")
            if tax_value:
                # Checked as the Tax ID API checks it, before anything is charged.
                self._tax_id(None, tax_type, tax_value, param="tax_id")
            consent = session["consent_collection"] or {}
            if consent.get("terms_of_service") == "required" and not details.get(
                "terms_accepted", True
            ):
                raise invalid("terms_of_service", "Please accept the terms of service.")
            events: list[dict[str, Any]] = []
            if customer is None and (
                session["mode"] == "subscription"
                or session["customer_creation"] == "always"
                or (session["invoice_creation"] or {}).get("enabled")
            ):
                fields = {"email": email, "name": business_name or name}
                customer = self._store(
                    self._customer(Params({k: v for k, v in fields.items() if v}))
                )
                customer["address"] = copy.deepcopy(address)
                if business_name:
                    customer["business_name"] = business_name
            elif customer is not None:
                update = session["_customer_update"]
                if update["address"] == "auto" and address is not None:
                    customer["address"] = copy.deepcopy(address)
                if update["name"] == "auto" and (business_name or name):
                    customer["name"] = business_name or name
                    if business_name:
                        customer["business_name"] = business_name
            collected_ids: list[dict[str, Any]] = []
            if tax_value:
                if customer is not None:
                    saved, tax_events = self._add_tax_id(customer, tax_type, tax_value)
                    events += tax_events
                    collected_ids.append(self.objects[saved["id"]])
                else:
                    # No customer to save it to: verified like Stripe's test mode, not stored.
                    loose = self._tax_id(None, tax_type, tax_value, param="tax_id")
                    value = loose["value"]
                    if loose["verification"]["status"] == "pending":
                        if "111111111" in value:
                            loose["verification"]["status"] = "unverified"
                        elif "222222222" not in value:
                            loose["verification"]["status"] = "verified"
                    collected_ids.append(loose)
            customer_id = customer["id"] if customer else None
            decision = None
            if automatic_tax:
                known = self._customer_tax_ids(customer_id) if customer_id else collected_ids
                decision = self._tax_decision(
                    (address or (customer or {}).get("address") or {}).get("country"),
                    known,
                    (customer or {}).get("tax_exempt", "none"),
                )
                self._apply_session_tax(session, decision)
                session["automatic_tax"]["status"] = "complete"
            pm = self._payment_method(number, brand, customer_id, email, name)
            if address is not None:
                pm["billing_details"]["address"] = copy.deepcopy(address)
            items = [
                (self.objects[li["price"]["id"]], li["quantity"]) for li in self._line_items[cs_id]
            ]
            session["status"] = "complete"
            session["payment_status"] = "paid"
            session["customer"] = customer_id
            session["url"] = None
            if consent.get("terms_of_service") == "required" or consent.get("promotions") == "auto":
                session["consent"] = {
                    "promotions": "opt_out" if consent.get("promotions") == "auto" else None,
                    "terms_of_service": "accepted"
                    if consent.get("terms_of_service") == "required"
                    else None,
                }
            session["customer_details"] = {
                "address": copy.deepcopy(pm["billing_details"]["address"]),
                "business_name": business_name,
                "email": email,
                "individual_name": None,
                "name": name,
                "phone": None,
                "tax_exempt": decision["exempt"]
                if decision
                else (customer or {}).get("tax_exempt", "none"),
                # The customer's tax IDs after the session (Stripe's description): those it
                # had and the one given now; without a customer, the one given.
                "tax_ids": [
                    {"type": t["type"], "value": t["value"]}
                    for t in (self._customer_tax_ids(customer_id) if customer_id else collected_ids)
                ],
            }
            if session["mode"] == "subscription":
                assert customer is not None
                recurring = [(pr, q) for pr, q in items if pr["type"] == "recurring"]
                one_time = [(pr, q) for pr, q in items if pr["type"] != "recurring"]
                sub = self._subscription(
                    customer,
                    recurring,
                    pm,
                    dict(session["_subscription_metadata"]),
                    session["_subscription_description"],
                )
                if automatic_tax:
                    sub["automatic_tax"] = {
                        "disabled_reason": None,
                        "enabled": True,
                        "liability": {"account": None, "type": "self"},
                    }
                for entry in session["discounts"]:
                    sub["discounts"].append(
                        self._discount(self.objects[entry["coupon"]], sub)["id"]
                    )
                events.append(self._event("customer.subscription.created", sub))
                invoice, invoice_events = self._invoice(
                    sub,
                    "subscription_create",
                    pm,
                    period=(sub["created"], sub["created"]),
                    extra_lines=one_time,
                    decision=decision,
                )
                sub["latest_invoice"] = invoice["id"]
                session["subscription"] = sub["id"]
                session["invoice"] = invoice["id"]
                events += invoice_events
            else:
                pi, _ = self._payment_intent(
                    session["amount_total"],
                    session["currency"],
                    customer_id,
                    pm,
                    metadata=session["_payment_intent_metadata"],
                    description=session["_payment_intent_description"],
                )
                session["payment_intent"] = pi["id"]
                events.append(self._event("payment_intent.succeeded", pi))
                if (session["invoice_creation"] or {}).get("enabled"):
                    assert customer is not None
                    invoice, invoice_events = self._payment_invoice(
                        session, customer, items, pi, decision
                    )
                    session["invoice"] = invoice["id"]
                    events += invoice_events
            events.append(self._event("checkout.session.completed", session))
            return session, events

    def _collected_address(
        self, session: dict[str, Any], details: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The billing address the page collected (None: only the card's country and ZIP)."""
        given = dict(details.get("address") or {})
        for key in ("line1", "line2", "postal_code", "city", "state", "country"):
            if details.get(key):
                given[key] = details[key]
        required = (
            session["billing_address_collection"] == "required"
            or session["automatic_tax"]["enabled"]
        )
        if not given:
            if not required:
                return None
            given = dict(GERMAN_ADDRESS)
        country = str(given.get("country") or "").upper()
        if not re.fullmatch(r"[A-Z]{2}", country):
            raise invalid("address[country]", "Please select a country.")
        address = {k: (str(given[k]) if given.get(k) else None) for k in GERMAN_ADDRESS}
        address["country"] = country
        if required:
            for key, label in (("line1", "address"), ("city", "city")):
                if not address[key]:
                    raise invalid(f"address[{key}]", f"Please enter your {label}.")
        return address

    def _payment_invoice(
        self,
        session: dict[str, Any],
        customer: dict[str, Any],
        items: list[tuple[dict[str, Any], int]],
        pi: dict[str, Any],
        decision: dict[str, Any] | None,
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The post-purchase invoice of a payment-mode session (invoice_creation[enabled])."""
        now = self.now()
        data = session["invoice_creation"]["invoice_data"]
        invoice = self._blank_invoice(
            customer,
            session["currency"],
            "manual",
            automatic_tax=decision is not None,
            period=(now, now),
        )
        lines = [
            self._invoice_line(invoice["id"], price, q, None, None, (now, now), decision)
            for price, q in items
        ]
        invoice["lines"]["data"] = lines
        invoice["lines"]["total_count"] = len(lines)
        invoice.update(
            account_tax_ids=copy.deepcopy(data["account_tax_ids"]),
            custom_fields=copy.deepcopy(data["custom_fields"]),
            description=data["description"],
            footer=data["footer"] or invoice["footer"],
            metadata=dict(data["metadata"] or {}),
        )
        if decision is not None and decision["exempt"] == "reverse":
            invoice["customer_tax_exempt"] = "reverse"
        self._set_invoice_totals(invoice)
        self._store(invoice)
        return invoice, self._invoice_events(invoice, lambda _total: pi)

    def _redirect_for(self, session: dict[str, Any]) -> str:
        if session["success_url"]:
            return _fill_template(session["success_url"], session["id"])
        return f"{self.base_url}/pay/{session['id']}"

    async def _pay(
        self,
        cs_id: str,
        card: str,
        email: str | None = None,
        name: str | None = None,
        **details: Any,
    ) -> dict[str, Any]:
        session, events = self._complete(cs_id, card, email, name, **details)
        await self._dispatch(events)
        with self._lock:
            return {"redirect_url": self._redirect_for(session), "session": self._view(session)}

    def _expire(self, cs_id: str, request_info: dict[str, Any] | None) -> tuple[Any, Any]:
        with self._lock:
            session = self._get("checkout.session", cs_id)
            if session["status"] != "open":
                raise invalid(
                    None,  # type: ignore[arg-type]
                    f'Only Checkout Sessions with a status in ["open"] can be expired. This '
                    f'Checkout Session has a status of "{session["status"]}".',
                )
            session["status"] = "expired"
            session["url"] = None
            return session, [self._event("checkout.session.expired", session, None, request_info)]

    def _update_subscription(
        self,
        sub_id: str,
        change: Callable[[dict[str, Any]], None],
        request_info: dict[str, Any] | None = None,
        event_type: str = "customer.subscription.updated",
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        with self._lock:
            sub = self._get("subscription", sub_id)
            before = self._view(sub)
            change(sub)
            previous = self._diff(before, self._view(sub))
            if not previous and event_type == "customer.subscription.updated":
                return sub, []
            if event_type != "customer.subscription.updated":
                previous = {}
            return sub, [self._event(event_type, sub, previous, request_info)]

    @staticmethod
    def _set_cancel_at_period_end(sub: dict[str, Any], value: bool, now: int) -> None:
        sub["cancel_at_period_end"] = value
        if value:
            sub["cancel_at"] = sub["items"]["data"][0]["current_period_end"]
            sub["canceled_at"] = now
            sub["cancellation_details"]["reason"] = "cancellation_requested"
        else:
            sub["cancel_at"] = None
            sub["canceled_at"] = None
            sub["cancellation_details"] = {"comment": None, "feedback": None, "reason": None}

    def _cancel_now(self, sub: dict[str, Any], reason: str = "cancellation_requested") -> None:
        now = self.now()
        sub["status"] = "canceled"
        sub["canceled_at"] = sub["canceled_at"] or now
        sub["ended_at"] = now
        sub["cancellation_details"]["reason"] = sub["cancellation_details"]["reason"] or reason

    def _renew(self, sub_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """End of period: pay the next invoice (or the open one when past_due), or end it."""
        with self._lock:
            sub = self._get("subscription", sub_id)
            if sub["status"] == "canceled":
                raise invalid("subscription", "This subscription is canceled.")
            before = self._view(sub)
            events = []
            if sub["cancel_at_period_end"]:
                self._cancel_now(sub)
                return sub, [self._event("customer.subscription.deleted", sub)]
            if sub["status"] == "past_due":
                invoice = self.objects[sub["latest_invoice"]]
                pm = self.objects[sub["default_payment_method"]]
                pi, _charge = self._payment_intent(
                    invoice["amount_due"],
                    invoice["currency"],
                    sub["customer"],
                    pm,
                    description="Subscription update",
                )
                self._settle(invoice, pi, paid=True)
                events.append(self._event("invoice.paid", invoice))
                events.append(self._event("invoice.payment_succeeded", invoice))
            else:
                self._advance(sub)
                invoice, invoice_events = self._invoice(
                    sub,
                    "subscription_cycle",
                    self.objects[sub["default_payment_method"]],
                    period=(
                        before["items"]["data"][0]["current_period_start"],
                        before["items"]["data"][0]["current_period_end"],
                    ),
                )
                sub["latest_invoice"] = invoice["id"]
                events += invoice_events
            sub["status"] = "active"
            events.append(
                self._event(
                    "customer.subscription.updated", sub, self._diff(before, self._view(sub))
                )
            )
            return sub, events

    def _fail(self, sub_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """End of period with a failing card: open invoice, subscription past_due."""
        with self._lock:
            sub = self._get("subscription", sub_id)
            if sub["status"] == "canceled":
                raise invalid("subscription", "This subscription is canceled.")
            before = self._view(sub)
            pm = self.objects[sub["default_payment_method"]]
            if sub["status"] == "past_due":
                invoice = self.objects[sub["latest_invoice"]]
                invoice["attempt_count"] += 1
                invoice["next_payment_attempt"] = self.now() + 3 * DAY
                events = [self._event("invoice.payment_failed", invoice)]
            else:
                self._advance(sub)
                invoice, events = self._invoice(
                    sub,
                    "subscription_cycle",
                    pm,
                    period=(
                        before["items"]["data"][0]["current_period_start"],
                        before["items"]["data"][0]["current_period_end"],
                    ),
                    decline="generic_decline",
                )
                sub["latest_invoice"] = invoice["id"]
            sub["status"] = "past_due"
            previous = self._diff(before, self._view(sub))
            if previous:
                events.append(self._event("customer.subscription.updated", sub, previous))
            return sub, events

    @staticmethod
    def _advance(sub: dict[str, Any]) -> None:
        for item in sub["items"]["data"]:
            rec = item["price"]["recurring"]
            start = item["current_period_end"]
            item["current_period_start"] = start
            item["current_period_end"] = add_interval(start, rec["interval"], rec["interval_count"])

    def _record(self, endpoint: str, p: Params) -> None:
        with self._lock:
            self._received.append((endpoint, _plain(p.data)))

    # ---------------------------------------------------------------- public Python API

    def received(self, endpoint: str | None = None) -> list[dict[str, Any]]:
        """The parameters received per endpoint (e.g. ``"checkout.sessions.create"``), oldest
        first, as the SDK was given them: nested dicts, lists for arrays, values as the form
        sent them (strings). ``None``: all, as ``{"endpoint", "params"}``."""
        with self._lock:
            if endpoint is None:
                return [{"endpoint": e, "params": copy.deepcopy(p)} for e, p in self._received]
            return [copy.deepcopy(p) for e, p in self._received if e == endpoint]

    def refund(
        self,
        target: str,
        amount: int | None = None,
        *,
        reason: str | None = None,
    ) -> dict[str, Any]:
        """Refund like the Dashboard does: ``target`` is a charge, payment intent, invoice or
        checkout session id; ``amount`` defaults to what is left. Sends refund.created and
        charge.refunded; returns the refund."""
        return self._call(lambda: self._refund_flow(target, amount, reason))  # type: ignore[no-any-return]

    async def refund_async(
        self, target: str, amount: int | None = None, *, reason: str | None = None
    ) -> Any:
        return await self._call_async(lambda: self._refund_flow(target, amount, reason))

    async def _refund_flow(self, target: str, amount: int | None, reason: str | None) -> Any:
        with self._lock:
            obj = self.objects.get(target)
            if obj is None:
                raise KeyError(f"no object {target!r}")
            kind = obj["object"]
            if kind == "checkout.session":
                if obj["payment_intent"]:
                    obj = self.objects[obj["payment_intent"]]
                elif obj["invoice"]:
                    obj = self.objects[obj["invoice"]]
                kind = obj["object"]
            charge: dict[str, Any] | None = None
            if kind == "charge":
                charge = obj
            elif kind == "payment_intent":
                charge = self.objects.get(obj["latest_charge"] or "")
            elif kind == "invoice":
                charge = self._invoice_charge(obj)
            if charge is None:
                raise KeyError(f"nothing to refund for {target!r}")
            refund, events = self._refund(charge, amount, reason=reason)
            answer = self._view(refund)
        await self._dispatch(events)
        return answer

    def verify_tax_id(
        self, tax_id: str, status: str = "verified", *, verified_name: str | None = None
    ) -> dict[str, Any]:
        """Finish (or redo) a tax ID's verification, e.g. a pending one Stripe confirms later:
        sets ``verification.status`` and sends customer.tax_id.updated. Returns the tax ID."""
        return self._call(lambda: self._verify_flow(tax_id, status, verified_name))  # type: ignore[no-any-return]

    async def verify_tax_id_async(
        self, tax_id: str, status: str = "verified", *, verified_name: str | None = None
    ) -> Any:
        return await self._call_async(lambda: self._verify_flow(tax_id, status, verified_name))

    async def _verify_flow(self, tax_id: str, status: str, verified_name: str | None) -> Any:
        if status not in ("pending", "unavailable", "unverified", "verified"):
            raise ValueError(f"bad verification status {status!r}")
        with self._lock:
            obj = self._get("tax_id", tax_id)
            before = copy.deepcopy(obj["verification"])
            customer = self.objects.get(obj["customer"] or "") or {}
            obj["verification"] = {
                "status": status,
                "verified_address": _one_line(customer.get("address"))
                if status == "verified"
                else None,
                "verified_name": (
                    verified_name or customer.get("business_name") or customer.get("name")
                )
                if status == "verified"
                else None,
            }
            events = [self._event("customer.tax_id.updated", obj, {"verification": before})]
            answer = self._view(obj)
        await self._dispatch(events)
        return answer

    def register_tax(self, country: str, type: str = "standard") -> dict[str, Any]:
        """Add an active Stripe Tax registration (as POST /v1/tax/registrations does)."""
        with self._lock:
            reg = self._store(self._registration(country.upper(), type, self.now() - 1, None))
            return self._view(reg)

    def configure_webhook(self, url: str, secret: str, events: list[str] | None = None) -> None:
        with self._lock:
            self.webhook = Webhook(url, secret, events or ["*"])

    def set_delivery(self, **settings: Any) -> DeliverySettings:
        """Change how the next event batches are delivered (see :class:`DeliverySettings`)."""
        with self._lock:
            for key, value in settings.items():
                if not hasattr(self.delivery, key):
                    raise TypeError(f"unknown delivery setting {key!r}")
                setattr(self.delivery, key, value)
            if self.delivery.order not in ("normal", "reverse", "shuffle"):
                raise ValueError(f"bad order {self.delivery.order!r}")
            if "seed" in settings:
                self._random = random.Random(self.delivery.seed)
            return copy.copy(self.delivery)

    def events(self, type: str | None = None) -> list[dict[str, Any]]:
        """Stored events, oldest first; ``type`` may use ``*`` wildcards."""
        with self._lock:
            return [
                copy.deepcopy(e)
                for e in self._events
                if type is None or fnmatch.fnmatchcase(e["type"], type)
            ]

    @property
    def deliveries(self) -> list[dict[str, Any]]:
        with self._lock:
            return copy.deepcopy(self._deliveries)

    def get(self, object_id: str) -> dict[str, Any]:
        """A copy of any stored object (as the API would show it)."""
        with self._lock:
            return self._view(self.objects[object_id])

    def reset(self) -> None:
        """Forget objects, events, deliveries, delivery settings; restore the initial webhook."""
        for task in list(getattr(self, "_tasks", ())):
            task.get_loop().call_soon_threadsafe(task.cancel)
        self._reset_state()

    def _call(self, make: Callable[[], Awaitable[Any]], timeout: float = 30.0) -> Any:
        if self._loop is None:
            raise RuntimeError("the fake is not running; use run_fake_stripe()")
        with contextlib.suppress(RuntimeError):
            if asyncio.get_running_loop() is self._loop:
                raise RuntimeError("use the *_async methods inside the fake's own loop")

        async def run() -> Any:
            return await make()

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(timeout)

    async def _call_async(self, make: Callable[[], Awaitable[Any]]) -> Any:
        if self._loop is None or asyncio.get_running_loop() is self._loop:
            return await make()

        async def run() -> Any:
            return await make()

        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(run(), self._loop))

    def pay(self, cs_id: str, card: str = "4242424242424242", **kw: Any) -> dict[str, Any]:
        """Pay like the hosted page does; returns ``{"redirect_url", "session"}``.

        Keywords: ``email``, ``name`` (cardholder), the billing address as ``country``,
        ``line1``, ``line2``, ``postal_code``, ``city``, ``state`` or ``address={...}`` (when the
        session requires an address and none is given: Unter den Linden 1, 10117 Berlin, DE),
        ``business_name`` and ``tax_id`` (``tax_id_type`` defaults from the prefix; only when the
        session collects tax IDs), ``terms_accepted`` (default True).

        Blocks until webhook deliveries finish (unless ``set_delivery(wait=False)``). Inside an
        async test whose webhook receiver runs on the test's loop use :meth:`pay_async`.
        """
        return self._call(lambda: self._pay(cs_id, card, **kw))  # type: ignore[no-any-return]

    async def pay_async(self, cs_id: str, card: str = "4242424242424242", **kw: Any) -> Any:
        return await self._call_async(lambda: self._pay(cs_id, card, **kw))

    def renew(self, sub_id: str) -> dict[str, Any]:
        return self._call(lambda: self._flow(self._renew, sub_id))  # type: ignore[no-any-return]

    async def renew_async(self, sub_id: str) -> Any:
        return await self._call_async(lambda: self._flow(self._renew, sub_id))

    def fail(self, sub_id: str) -> dict[str, Any]:
        return self._call(lambda: self._flow(self._fail, sub_id))  # type: ignore[no-any-return]

    async def fail_async(self, sub_id: str) -> Any:
        return await self._call_async(lambda: self._flow(self._fail, sub_id))

    def flush(self) -> int:
        return self._call(self._flush)  # type: ignore[no-any-return]

    async def flush_async(self) -> int:
        return await self._call_async(self._flush)  # type: ignore[no-any-return]

    def resend(self, event_id: str) -> None:
        self._call(lambda: self._resend(event_id))

    async def resend_async(self, event_id: str) -> None:
        await self._call_async(lambda: self._resend(event_id))

    def wait_idle(self, timeout: float = 10.0) -> None:
        """Wait until no webhook delivery (including retries) is in flight."""
        self._call(lambda: self._idle(timeout), timeout + 1)

    async def wait_idle_async(self, timeout: float = 10.0) -> None:
        await self._call_async(lambda: self._idle(timeout))

    async def _flow(
        self, step: Callable[[str], tuple[dict[str, Any], list[dict[str, Any]]]], object_id: str
    ) -> dict[str, Any]:
        obj, events = step(object_id)
        await self._dispatch(events)
        with self._lock:
            return self._view(obj)

    # ---------------------------------------------------------------- HTTP

    def _build_app(self) -> None:
        """The API, pay and portal pages on `self.app`."""
        app = self.app
        app.config["PROVIDE_AUTOMATIC_OPTIONS"] = False

        @app.before_serving
        async def _start() -> None:
            self._http = httpx.AsyncClient(verify=self._webhook_verify)

        @app.after_serving
        async def _finish() -> None:
            for task in list(self._tasks):
                task.cancel()
            if self._http is not None:
                await self._http.aclose()

        def api(rule: str, methods: list[str]) -> Callable[[Callable[..., Any]], Any]:
            """A /v1 route: auth, params, idempotency, errors in Stripe's shape."""

            def decorate(fn: Callable[..., Any]) -> Any:
                async def view(**kwargs: Any) -> Response:
                    request_id = _rand_id("req", 14)
                    raw_body = ""
                    try:
                        key = self._authenticate()
                        pairs = parse_qsl(request.query_string.decode(), keep_blank_values=True)
                        if request.method == "POST":
                            raw_body = (await request.get_data(as_text=True)) or ""
                            pairs += parse_qsl(raw_body, keep_blank_values=True)
                        idem = request.headers.get("Idempotency-Key")
                        if request.method == "POST" and idem:
                            with self._lock:
                                cached = self._idempotency.get((key, idem))
                            if cached is not None:
                                body_seen, status, answer = cached
                                if body_seen != f"{request.path}?{raw_body}":
                                    raise StripeError(
                                        400,
                                        "Keys for idempotent requests can only be used with the "
                                        "same parameters they were first used with. Try using a "
                                        f"key other than '{idem}' if you meant to execute a "
                                        "different request.",
                                        type="idempotency_error",
                                    )
                                response = _json(answer, status, request_id)
                                response.headers["Idempotent-Replayed"] = "true"
                                return response
                        params = Params(parse_form(pairs))
                        info = {"id": request_id, "idempotency_key": idem}
                        result = fn(params, info, **kwargs)
                        if asyncio.iscoroutine(result):
                            result = await result
                        status, answer = 200, result
                    except StripeError as exc:
                        status, answer = exc.status, exc.body()
                    if (
                        request.method == "POST"
                        and request.headers.get("Idempotency-Key")
                        and (status != 401)
                    ):
                        with self._lock:
                            self._idempotency[
                                (self.api_key, request.headers["Idempotency-Key"])
                            ] = (
                                f"{request.path}?{raw_body}",
                                status,
                                answer,
                            )
                    return _json(answer, status, request_id)

                view.__name__ = f"{fn.__name__}_{'_'.join(methods)}"
                app.add_url_rule(rule, view.__name__, view, methods=methods)
                return fn

            return decorate

        # ------------------------------------------------ customers

        @api("/v1/customers", ["POST"])
        async def customer_create(p: Params, info: Any) -> Any:
            self._record("customers.create", p)
            p.check_known(ALLOWED["customer_create"])
            events: list[dict[str, Any]] = []
            with self._lock:
                data = [d for d in as_list(p.data.get("tax_id_data")) if isinstance(d, dict)]
                for i, d in enumerate(data):  # checked before anything is stored
                    self._tax_id(
                        None,
                        Params(d).str("type"),
                        Params(d).str("value"),
                        param=f"tax_id_data[{i}]",
                    )
                customer = self._store(self._customer(p))
                for d in data:
                    _, tax_events = self._add_tax_id(
                        customer, Params(d).str("type"), Params(d).str("value"), info
                    )
                    events += tax_events
                answer = self._render(customer, p.expand())
            await self._dispatch(events)
            return answer

        @api("/v1/customers", ["GET"])
        def customer_list(p: Params, _info: Any) -> Any:
            email = p.str("email")
            with self._lock:
                items = [c for c in self._all("customer") if email is None or c["email"] == email]
                return self._paginate(items, p, "/v1/customers")

        @api("/v1/customers/<object_id>", ["GET"])
        def customer_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return self._render(self._get("customer", object_id), p.expand())

        @api("/v1/customers/<object_id>", ["POST"])
        def customer_update(p: Params, _info: Any, object_id: str) -> Any:
            self._record("customers.update", p)
            p.check_known(ALLOWED["customer_update"])
            with self._lock:
                customer = self._get("customer", object_id)
                tax_exempt = p.enum("tax_exempt", ["exempt", "none", "reverse"])
                for name in (
                    "email",
                    "name",
                    "description",
                    "phone",
                    "business_name",
                    "individual_name",
                ):
                    if p.has(name):
                        customer[name] = p.str(name, empty_ok=True) or None
                if p.has("address"):
                    customer["address"] = self._address(p)
                if tax_exempt is not None:
                    customer["tax_exempt"] = tax_exempt
                if p.has("invoice_settings"):
                    customer["invoice_settings"] = self._invoice_settings(
                        p, customer["invoice_settings"]
                    )
                customer["metadata"] = p.metadata(existing=customer["metadata"])
                return self._render(customer, p.expand())

        # ------------------------------------------------ customer tax IDs

        @api("/v1/customers/<customer_id>/tax_ids", ["POST"])
        async def tax_id_create(p: Params, info: Any, customer_id: str) -> Any:
            self._record("customers.tax_ids.create", p)
            p.check_known(ALLOWED["tax_id_create"])
            with self._lock:
                customer = self._get("customer", customer_id, param="customer")
                created, events = self._add_tax_id(
                    customer, p.str("type", required=True), p.str("value", required=True), info
                )
            await self._dispatch(events)
            return created

        @api("/v1/customers/<customer_id>/tax_ids", ["GET"])
        def tax_id_list(p: Params, _info: Any, customer_id: str) -> Any:
            with self._lock:
                self._get("customer", customer_id, param="customer")
                items = [t for t in self._all("tax_id") if t["customer"] == customer_id]
                return self._paginate(items, p, f"/v1/customers/{customer_id}/tax_ids")

        @api("/v1/customers/<customer_id>/tax_ids/<object_id>", ["GET"])
        def tax_id_get(p: Params, _info: Any, customer_id: str, object_id: str) -> Any:
            with self._lock:
                self._get("customer", customer_id, param="customer")
                tax_id = self._get("tax_id", object_id)
                if tax_id["customer"] != customer_id:
                    raise missing("tax_id", object_id)
                return self._render(tax_id, p.expand())

        @api("/v1/customers/<customer_id>/tax_ids/<object_id>", ["DELETE"])
        async def tax_id_delete(p: Params, info: Any, customer_id: str, object_id: str) -> Any:
            with self._lock:
                self._get("customer", customer_id, param="customer")
                tax_id = self._get("tax_id", object_id)
                if tax_id["customer"] != customer_id:
                    raise missing("tax_id", object_id)
                del self.objects[object_id]
                events = [self._event("customer.tax_id.deleted", tax_id, None, info)]
            await self._dispatch(events)
            return {"id": object_id, "object": "tax_id", "deleted": True}

        # ------------------------------------------------ Stripe Tax

        @api("/v1/tax/registrations", ["POST"])
        def registration_create(p: Params, _info: Any) -> Any:
            self._record("tax.registrations.create", p)
            p.check_known(ALLOWED["registration_create"])
            country = (p.str("country", required=True) or "").upper()
            raw = p.data.get("active_from")
            if raw is None:
                raise missing_param("active_from")
            active_from = self.now() if raw == "now" else p.int("active_from", minimum=0)
            expires = p.data.get("expires_at")
            expires_at = (
                None if expires is None else self.now() if expires == "now" else p.int("expires_at")
            )
            options = _nested(p, "country_options", {country.lower()})
            if options is None:
                raise missing_param("country_options")
            option = _nested(
                options, country.lower(), {"standard", "type"}, prefix="country_options"
            )
            assert option is not None
            type_ = option.enum(
                "type", ["ioss", "oss_non_union", "oss_union", "standard"], required=True
            )
            standard = _nested(
                option,
                "standard",
                {"place_of_supply_scheme"},
                prefix=f"country_options[{country.lower()}]",
            )
            scheme = (
                standard.enum(
                    "place_of_supply_scheme", ["inbound_goods", "small_seller", "standard"]
                )
                if standard
                else None
            )
            with self._lock:
                reg = self._registration(
                    country,
                    str(type_),
                    int(active_from or 0),
                    expires_at,
                    {"place_of_supply_scheme": scheme or "standard"},
                )
                return self._render(self._store(reg), p.expand())

        @api("/v1/tax/registrations", ["GET"])
        def registration_list(p: Params, _info: Any) -> Any:
            status = p.enum("status", ["active", "all", "expired", "scheduled"]) or "all"
            with self._lock:
                items = []
                for reg in self._all("tax.registration"):
                    reg["status"] = self._registration_status(reg["active_from"], reg["expires_at"])
                    if status in ("all", reg["status"]):
                        items.append(reg)
                return self._paginate(items, p, "/v1/tax/registrations")

        @api("/v1/tax/registrations/<object_id>", ["GET"])
        def registration_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return self._render(self._get("tax.registration", object_id), p.expand())

        @api("/v1/tax/registrations/<object_id>", ["POST"])
        def registration_update(p: Params, _info: Any, object_id: str) -> Any:
            p.check_known(ALLOWED["registration_update"])
            with self._lock:
                reg = self._get("tax.registration", object_id)
                if p.has("expires_at"):
                    raw = p.data["expires_at"]
                    reg["expires_at"] = (
                        None if raw == "" else self.now() if raw == "now" else p.int("expires_at")
                    )
                if p.has("active_from"):
                    raw = p.data["active_from"]
                    reg["active_from"] = self.now() if raw == "now" else p.int("active_from")
                reg["status"] = self._registration_status(reg["active_from"], reg["expires_at"])
                return self._render(reg, p.expand())

        @api("/v1/tax_rates/<object_id>", ["GET"])
        def tax_rate_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return self._render(self._get("tax_rate", object_id), p.expand())

        # ------------------------------------------------ refunds and credit notes

        @api("/v1/refunds", ["POST"])
        async def refund_create(p: Params, info: Any) -> Any:
            self._record("refunds.create", p)
            p.check_known(ALLOWED["refund_create"])
            reason = p.enum("reason", ["duplicate", "fraudulent", "requested_by_customer"])
            amount = p.int("amount", minimum=1)
            with self._lock:
                charge = self._charge_of(p)
                refund, events = self._refund(
                    charge, amount, reason=reason, metadata=p.metadata(), info=info
                )
                answer = self._render(refund, p.expand())
            await self._dispatch(events)
            return answer

        @api("/v1/refunds/<object_id>", ["GET"])
        def refund_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return self._render(self._get("refund", object_id), p.expand())

        @api("/v1/refunds", ["GET"])
        def refund_list(p: Params, _info: Any) -> Any:
            charge, pi = p.str("charge"), p.str("payment_intent")
            with self._lock:
                items = [
                    r
                    for r in self._all("refund")
                    if (charge is None or r["charge"] == charge)
                    and (pi is None or r["payment_intent"] == pi)
                ]
                return self._paginate(items, p, "/v1/refunds")

        @api("/v1/credit_notes", ["POST"])
        async def credit_note_create(p: Params, info: Any) -> Any:
            self._record("credit_notes.create", p)
            p.check_known(ALLOWED["credit_note_create"])
            with self._lock:
                credit_note, events = self._credit_note(p, info)
                answer = self._render(credit_note, p.expand())
            await self._dispatch(events)
            return answer

        @api("/v1/credit_notes", ["GET"])
        def credit_note_list(p: Params, _info: Any) -> Any:
            invoice, customer = p.str("invoice"), p.str("customer")
            with self._lock:
                items = [
                    c
                    for c in self._all("credit_note")
                    if (invoice is None or c["invoice"] == invoice)
                    and (customer is None or c["customer"] == customer)
                ]
                return self._paginate(items, p, "/v1/credit_notes")

        @api("/v1/credit_notes/<object_id>", ["GET"])
        def credit_note_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return self._render(self._get("credit_note", object_id), p.expand())

        @api("/v1/credit_notes/<object_id>/lines", ["GET"])
        def credit_note_lines(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                credit_note = self._get("credit_note", object_id)
                return self._paginate(
                    credit_note["lines"]["data"], p, f"/v1/credit_notes/{object_id}/lines"
                )

        @api("/v1/credit_notes/<object_id>/void", ["POST"])
        async def credit_note_void(p: Params, info: Any, object_id: str) -> Any:
            p.check_known({"expand"})
            with self._lock:
                credit_note, events = self._void_credit_note(object_id, info)
                answer = self._render(credit_note, p.expand())
            await self._dispatch(events)
            return answer

        # ------------------------------------------------ products

        @api("/v1/products", ["POST"])
        def product_create(p: Params, _info: Any) -> Any:
            self._record("products.create", p)
            p.check_known(ALLOWED["product_create"])
            with self._lock:
                return self._render(self._store(self._product(p)), p.expand())

        @api("/v1/products", ["GET"])
        def product_list(p: Params, _info: Any) -> Any:
            active, ids = p.bool("active"), p.list_of_str("ids")
            with self._lock:
                items = [
                    x
                    for x in self._all("product")
                    if (active is None or x["active"] == active) and (not ids or x["id"] in ids)
                ]
                return self._paginate(items, p, "/v1/products")

        @api("/v1/products/<object_id>", ["GET"])
        def product_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return self._render(self._get("product", object_id), p.expand())

        @api("/v1/products/<object_id>", ["POST"])
        def product_update(p: Params, _info: Any, object_id: str) -> Any:
            p.check_known(ALLOWED["product_create"] - {"id", "type"} | {"default_price"})
            with self._lock:
                product = self._get("product", object_id)
                if p.has("name"):
                    product["name"] = p.str("name")
                for name in ("description", "statement_descriptor", "unit_label", "url"):
                    if p.has(name):
                        product[name] = p.str(name, empty_ok=True) or None
                if p.has("default_price"):
                    price_id = p.str("default_price", empty_ok=True) or None
                    if price_id:
                        self._get("price", price_id, param="default_price", status=400)
                    product["default_price"] = price_id
                if p.has("active"):
                    product["active"] = p.bool("active")
                product["metadata"] = p.metadata(existing=product["metadata"])
                product["updated"] = self.now()
                return self._render(product, p.expand())

        # ------------------------------------------------ prices

        @api("/v1/prices", ["POST"])
        def price_create(p: Params, _info: Any) -> Any:
            self._record("prices.create", p)
            p.check_known(ALLOWED["price_create"])
            with self._lock:
                return self._render(self._store(self._price(p)), p.expand())

        @api("/v1/coupons", ["POST"])
        def coupon_create(p: Params, _info: Any) -> Any:
            self._record("coupons.create", p)
            p.check_known(ALLOWED["coupon_create"])
            with self._lock:
                return self._render(self._store(self._coupon(p)), p.expand())

        @api("/v1/coupons/<object_id>", ["GET"])
        def coupon_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return self._render(self._get("coupon", object_id), p.expand())

        @api("/v1/discounts/<object_id>", ["GET"])
        def discount_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return self._render(self._get("discount", object_id), p.expand())

        @api("/v1/prices", ["GET"])
        def price_list(p: Params, _info: Any) -> Any:
            active, product = p.bool("active"), p.str("product")
            type_ = p.enum("type", ["one_time", "recurring"])
            currency = p.str("currency")
            keys = p.list_of_str("lookup_keys")
            if len(keys) > 10:
                raise invalid("lookup_keys", "You can pass at most 10 lookup keys.")
            with self._lock:
                items = [
                    x
                    for x in self._all("price")
                    if (active is None or x["active"] == active)
                    and (product is None or x["product"] == product)
                    and (type_ is None or x["type"] == type_)
                    and (currency is None or x["currency"] == currency.lower())
                    and (not keys or x["lookup_key"] in keys)
                ]
                return self._paginate(items, p, "/v1/prices")

        @api("/v1/prices/<object_id>", ["GET"])
        def price_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return self._render(self._get("price", object_id), p.expand())

        @api("/v1/prices/<object_id>", ["POST"])
        def price_update(p: Params, _info: Any, object_id: str) -> Any:
            self._record("prices.update", p)
            p.check_known(ALLOWED["price_update"])
            with self._lock:
                price = self._get("price", object_id)
                behavior = p.enum("tax_behavior", ["exclusive", "inclusive", "unspecified"])
                if behavior is not None and behavior != price["tax_behavior"]:
                    if price["tax_behavior"] != "unspecified":
                        raise invalid(
                            "tax_behavior",
                            "You cannot change `tax_behavior` once it has been set to "
                            "`inclusive` or `exclusive`. Create a new price instead.",
                        )
                    price["tax_behavior"] = behavior
                if p.has("lookup_key"):
                    key = p.str("lookup_key", empty_ok=True) or None
                    if key:
                        self._take_lookup_key(key, price["id"], bool(p.bool("transfer_lookup_key")))
                    price["lookup_key"] = key
                if p.has("active"):
                    price["active"] = p.bool("active")
                if p.has("nickname"):
                    price["nickname"] = p.str("nickname", empty_ok=True) or None
                price["metadata"] = p.metadata(existing=price["metadata"])
                return self._render(price, p.expand())

        # ------------------------------------------------ checkout sessions

        @api("/v1/checkout/sessions", ["POST"])
        def session_create(p: Params, _info: Any) -> Any:
            self._record("checkout.sessions.create", p)
            p.check_known(ALLOWED["session_create"])
            with self._lock:
                return self._render(self._store(self._session(p)), p.expand())

        @api("/v1/checkout/sessions", ["GET"])
        def session_list(p: Params, _info: Any) -> Any:
            filters = {
                k: p.str(k) for k in ("customer", "payment_intent", "subscription", "status")
            }
            with self._lock:
                items = [
                    s
                    for s in self._all("checkout.session")
                    if all(v is None or s.get(k) == v for k, v in filters.items())
                ]
                return self._paginate(items, p, "/v1/checkout/sessions")

        @api("/v1/checkout/sessions/<object_id>", ["GET"])
        def session_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return self._render(self._get("checkout.session", object_id), p.expand())

        @api("/v1/checkout/sessions/<object_id>/line_items", ["GET"])
        def session_line_items(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                self._get("checkout.session", object_id)
                return self._listing(
                    self._line_items[object_id],
                    False,
                    f"/v1/checkout/sessions/{object_id}/line_items",
                    p,
                )

        @api("/v1/checkout/sessions/<object_id>/expire", ["POST"])
        async def session_expire(p: Params, info: Any, object_id: str) -> Any:
            p.check_known({"expand"})
            session, events = self._expire(object_id, info)
            await self._dispatch(events)
            with self._lock:
                return self._render(session, p.expand())

        # ------------------------------------------------ subscriptions

        @api("/v1/subscriptions", ["GET"])
        def subscription_list(p: Params, _info: Any) -> Any:
            customer, price = p.str("customer"), p.str("price")
            status = p.enum(
                "status",
                [
                    "active",
                    "all",
                    "canceled",
                    "ended",
                    "incomplete",
                    "incomplete_expired",
                    "past_due",
                    "paused",
                    "trialing",
                    "unpaid",
                ],
            )
            with self._lock:
                items = [
                    s
                    for s in self._all("subscription")
                    if (customer is None or s["customer"] == customer)
                    and (
                        price is None or any(i["price"]["id"] == price for i in s["items"]["data"])
                    )
                    and (
                        (status is None and s["status"] != "canceled")
                        or status == "all"
                        or s["status"] == status
                        or (status == "ended" and s["status"] in ("canceled", "incomplete_expired"))
                    )
                ]
                return self._paginate(items, p, "/v1/subscriptions")

        @api("/v1/subscriptions/<object_id>", ["GET"])
        def subscription_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return self._render(self._get("subscription", object_id), p.expand())

        @api("/v1/subscriptions/<object_id>", ["POST"])
        async def subscription_update(p: Params, info: Any, object_id: str) -> Any:
            self._record("subscriptions.update", p)
            p.check_known(ALLOWED["subscription_update"])
            cape = p.bool("cancel_at_period_end")
            with self._lock:
                current = self._get("subscription", object_id)
                if current["status"] == "canceled" and set(p.data) - {
                    "metadata",
                    "cancellation_details",
                    "expand",
                }:
                    raise invalid(
                        None,  # type: ignore[arg-type]
                        "A canceled subscription can only update its cancellation_details and "
                        "metadata.",
                    )
                if p.has("default_payment_method"):
                    self._get(
                        "payment_method",
                        p.str("default_payment_method") or "",
                        param="default_payment_method",
                        status=400,
                    )
                cancel_at = p.int("cancel_at") if p.data.get("cancel_at") else None
                item_changes = self._item_changes(p, current)
                coupon = self._discount_coupon(p, "discounts")
                clear_discounts = p.has("discounts") and p.data.get("discounts") in ("", [])

            def change(sub: dict[str, Any]) -> None:
                for item, price, quantity in item_changes:
                    if price is not None:
                        item["price"] = copy.deepcopy(price)
                        item["plan"] = _plan_of(price)
                    if quantity is not None:
                        item["quantity"] = quantity
                if coupon is not None:
                    coupon["times_redeemed"] += 1
                    sub["discounts"] = [self._discount(coupon, sub)["id"]]
                elif clear_discounts:
                    sub["discounts"] = []
                if cape is not None:
                    self._set_cancel_at_period_end(sub, cape, self.now())
                if p.has("cancel_at"):
                    sub["cancel_at"] = cancel_at
                    sub["canceled_at"] = self.now() if cancel_at else None
                if p.has("metadata"):
                    sub["metadata"] = p.metadata(existing=sub["metadata"])
                if p.has("description"):
                    sub["description"] = p.str("description", empty_ok=True) or None
                if p.has("default_payment_method"):
                    sub["default_payment_method"] = p.str("default_payment_method")
                details = p.data.get("cancellation_details")
                if isinstance(details, dict):
                    for k in ("comment", "feedback"):
                        if k in details:
                            sub["cancellation_details"][k] = details[k] or None

            sub, events = self._update_subscription(object_id, change, info)
            await self._dispatch(events)
            with self._lock:
                return self._render(sub, p.expand())

        @api("/v1/subscriptions/<object_id>", ["DELETE"])
        async def subscription_cancel(p: Params, info: Any, object_id: str) -> Any:
            p.check_known(ALLOWED["subscription_cancel"])
            with self._lock:
                if self._get("subscription", object_id)["status"] == "canceled":
                    raise invalid(
                        None,  # type: ignore[arg-type]
                        f"A canceled subscription can not be canceled again ('{object_id}').",
                    )

            def change(sub: dict[str, Any]) -> None:
                details = p.data.get("cancellation_details")
                if isinstance(details, dict):
                    for k in ("comment", "feedback"):
                        if k in details:
                            sub["cancellation_details"][k] = details[k] or None
                self._cancel_now(sub)

            sub, events = self._update_subscription(
                object_id, change, info, event_type="customer.subscription.deleted"
            )
            await self._dispatch(events)
            with self._lock:
                return self._render(sub, p.expand())

        # ------------------------------------------------ invoices, payments

        @api("/v1/invoices/<object_id>", ["GET"])
        def invoice_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return self._render(self._get("invoice", object_id), p.expand())

        @api("/v1/invoice_payments", ["GET"])
        def invoice_payment_list(p: Params, _info: Any) -> Any:
            invoice = p.str("invoice")
            status = p.enum("status", ["canceled", "open", "paid"])
            payment = _nested(p, "payment", {"payment_intent", "payment_record", "type"})
            intent = None
            if payment is not None:
                payment.enum("type", ["payment_intent", "payment_record"], required=True)
                intent = payment.str("payment_intent")
            with self._lock:
                items = [
                    pay
                    for invoice_id, pays in reversed(self._invoice_payments.items())
                    for pay in pays
                    if (invoice is None or invoice_id == invoice)
                    and (status is None or pay["status"] == status)
                    and (intent is None or pay["payment"]["payment_intent"] == intent)
                ]
                return self._paginate(items, p, "/v1/invoice_payments")

        @api("/v1/invoices/<object_id>/lines", ["GET"])
        def invoice_lines(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                invoice = self._get("invoice", object_id)
                return self._paginate(
                    invoice["lines"]["data"], p, f"/v1/invoices/{object_id}/lines"
                )

        @api("/v1/invoices/<object_id>/<action>", ["POST"])
        async def invoice_action(p: Params, info: Any, object_id: str, action: str) -> Any:
            if action not in ("void", "mark_uncollectible"):
                return _unrecognized_answer()
            p.check_known({"expand"})
            with self._lock:
                invoice = self._get("invoice", object_id)
                if invoice["status"] != "open":
                    raise invalid(
                        "invoice",
                        f"You can only {'void' if action == 'void' else 'mark as uncollectible'} "
                        f"an open invoice. This invoice's status is {invoice['status']}.",
                        "invoice_not_open",
                    )
                now = self.now()
                if action == "void":
                    invoice["status"] = "void"
                    invoice["status_transitions"]["voided_at"] = now
                    invoice["amount_remaining"] = 0
                    event_type = "invoice.voided"
                else:
                    invoice["status"] = "uncollectible"
                    invoice["status_transitions"]["marked_uncollectible_at"] = now
                    event_type = "invoice.marked_uncollectible"
                invoice["auto_advance"] = False
                invoice["next_payment_attempt"] = None
                events = [self._event(event_type, invoice, None, info)]
                answer = self._render(invoice, p.expand())
            await self._dispatch(events)
            return answer

        @api("/v1/invoices", ["GET"])
        def invoice_list(p: Params, _info: Any) -> Any:
            customer, subscription, status = (
                p.str("customer"),
                p.str("subscription"),
                p.str("status"),
            )
            with self._lock:
                items = [
                    i
                    for i in self._all("invoice")
                    if (customer is None or i["customer"] == customer)
                    and (
                        subscription is None
                        or ((i["parent"] or {}).get("subscription_details") or {}).get(
                            "subscription"
                        )
                        == subscription
                    )
                    and (status is None or i["status"] == status)
                ]
                return self._paginate(items, p, "/v1/invoices")

        for kind, prefix in (
            ("payment_intent", "payment_intents"),
            ("payment_method", "payment_methods"),
            ("charge", "charges"),
        ):

            def make(kind: str = kind) -> Callable[..., Any]:
                def getter(p: Params, _info: Any, object_id: str) -> Any:
                    with self._lock:
                        return self._render(self._get(kind, object_id), p.expand())

                getter.__name__ = f"{kind}_get"
                return getter

            api(f"/v1/{prefix}/<object_id>", ["GET"])(make())

        # ------------------------------------------------ billing portal

        @api("/v1/billing_portal/sessions", ["POST"])
        def portal_create(p: Params, _info: Any) -> Any:
            self._record("billing_portal.sessions.create", p)
            p.check_known(ALLOWED["portal_create"])
            customer_id = p.str("customer", required=True)
            assert customer_id is not None
            return_url = p.str("return_url")
            if return_url is not None and not return_url.startswith(("http://", "https://")):
                raise invalid("return_url", "Not a valid URL", "url_invalid")
            with self._lock:
                self._get("customer", customer_id, param="customer", status=400)
                bps_id = _rand_id("bps")
                portal = {
                    "id": bps_id,
                    "object": "billing_portal.session",
                    "configuration": p.str("configuration") or self._portal_configuration,
                    "created": self.now(),
                    "customer": customer_id,
                    "flow": None,
                    "livemode": False,
                    "locale": p.str("locale"),
                    "on_behalf_of": p.str("on_behalf_of"),
                    "return_url": return_url,
                    "url": f"{self.base_url}/portal/{bps_id}",
                }
                return self._render(self._store(portal), p.expand())

        # ------------------------------------------------ events

        @api("/v1/events", ["GET"])
        def event_list(p: Params, _info: Any) -> Any:
            type_, types = p.str("type"), p.list_of_str("types")
            delivered = p.bool("delivery_success")
            with self._lock:
                ok_ids = {d["event_id"] for d in self._deliveries if _ok(d["status_code"])}
                items = [
                    e
                    for e in reversed(self._events)
                    if (type_ is None or fnmatch.fnmatchcase(e["type"], type_))
                    and (not types or e["type"] in types)
                    and (delivered is None or (e["id"] in ok_ids) == delivered)
                ]
                return self._paginate(items, p, "/v1/events")

        @api("/v1/events/<object_id>", ["GET"])
        def event_get(p: Params, _info: Any, object_id: str) -> Any:
            with self._lock:
                return copy.deepcopy(self._find_event(object_id))

        # ------------------------------------------------ hosted pages

        @app.get("/pay/<cs_id>")
        async def pay_page(cs_id: str) -> Any:
            with self._lock:
                session = self.objects.get(cs_id)
                if session is None or session.get("object") != "checkout.session":
                    return _page("Not found", "<p>This checkout page does not exist.</p>"), 404
                return self._pay_page(session)

        @app.post("/pay/<cs_id>")
        async def pay_submit(cs_id: str) -> Any:
            form = await request.form
            with self._lock:
                session = self.objects.get(cs_id)
                if session is None or session.get("object") != "checkout.session":
                    return _page("Not found", "<p>This checkout page does not exist.</p>"), 404
            details: dict[str, Any] = {
                k: form.get(k)
                for k in ("line1", "line2", "postal_code", "city", "state", "country")
                if form.get(k)
            }
            if form.get("is_business"):
                details["business_name"] = form.get("business_name") or None
                details["tax_id"] = form.get("tax_id") or None
            if form.get("tos_shown"):
                details["terms_accepted"] = bool(form.get("tos"))
            try:
                result = await self._pay(
                    cs_id,
                    form.get("card_number", ""),
                    form.get("email") or None,
                    form.get("name") or None,
                    **details,
                )
            except StripeError as exc:
                with self._lock:
                    return self._pay_page(session, error=exc.message, form=form), exc.status
            return redirect(result["redirect_url"], 303)

        @app.get("/invoices/<in_id>")
        async def invoice_page(in_id: str) -> Any:
            with self._lock:
                invoice = self.objects.get(in_id)
                if invoice is None or invoice.get("object") != "invoice" or not invoice["number"]:
                    return _page("Not found", "<p>This invoice does not exist.</p>"), 404
                return self._invoice_page(invoice)

        @app.get("/invoices/<in_id>/pdf")
        async def invoice_pdf(in_id: str) -> Any:
            with self._lock:
                invoice = self.objects.get(in_id)
                if invoice is None or invoice.get("object") != "invoice" or not invoice["number"]:
                    return _page("Not found", "<p>This invoice does not exist.</p>"), 404
                pdf = _pdf(self._document_lines(invoice))
            return Response(
                pdf,
                content_type="application/pdf",
                headers={
                    "Content-Disposition": f'inline; filename="Invoice-{invoice["number"]}.pdf"'
                },
            )

        @app.get("/credit_notes/<cn_id>/pdf")
        async def credit_note_pdf(cn_id: str) -> Any:
            with self._lock:
                credit_note = self.objects.get(cn_id)
                if credit_note is None or credit_note.get("object") != "credit_note":
                    return _page("Not found", "<p>This credit note does not exist.</p>"), 404
                pdf = _pdf(self._document_lines(credit_note))
            return Response(
                pdf,
                content_type="application/pdf",
                headers={
                    "Content-Disposition": (
                        f'inline; filename="CreditNote-{credit_note["number"]}.pdf"'
                    )
                },
            )

        @app.get("/portal/<bps_id>")
        async def portal_page(bps_id: str) -> Any:
            with self._lock:
                portal = self.objects.get(bps_id)
                if portal is None or portal.get("object") != "billing_portal.session":
                    return _page("Not found", "<p>This portal session does not exist.</p>"), 404
                return self._portal_page(portal)

        @app.post("/portal/<bps_id>/subscriptions/<sub_id>/<action>")
        async def portal_action(bps_id: str, sub_id: str, action: str) -> Any:
            with self._lock:
                portal = self.objects.get(bps_id)
                sub = self.objects.get(sub_id)
                if (
                    portal is None
                    or sub is None
                    or sub.get("customer") != portal.get("customer")
                    or action not in ("cancel", "renew")
                    or sub["status"] == "canceled"
                ):
                    return _page("Not found", "<p>Nothing to do here.</p>"), 404
            _, events = self._update_subscription(
                sub_id,
                lambda s: self._set_cancel_at_period_end(s, action == "cancel", self.now()),
            )
            await self._dispatch(events)
            return redirect(f"/portal/{bps_id}", 303)

        # ------------------------------------------------ control endpoints

        async def body() -> dict[str, Any]:
            data = await request.get_json(force=True, silent=True)
            return data if isinstance(data, dict) else {}

        def control(fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
            async def wrapped(**kwargs: Any) -> Any:
                try:
                    return await fn(**kwargs)
                except StripeError as exc:
                    return exc.body(), exc.status
                except (TypeError, ValueError, KeyError) as exc:
                    return {"error": {"type": "fake_error", "message": str(exc)}}, 400

            wrapped.__name__ = fn.__name__
            return wrapped

        @app.route("/_fake/webhook", methods=["GET", "POST", "DELETE"])
        @control
        async def fake_webhook() -> Any:
            if request.method == "POST":
                data = await body()
                self.configure_webhook(data["url"], data["secret"], data.get("events"))
            elif request.method == "DELETE":
                with self._lock:
                    self.webhook = None
            return {"webhook": asdict(self.webhook) if self.webhook else None}

        @app.route("/_fake/delivery", methods=["GET", "POST"])
        @control
        async def fake_delivery() -> Any:
            if request.method == "POST":
                return asdict(self.set_delivery(**(await body())))
            return asdict(self.delivery)

        @app.post("/_fake/flush")
        @control
        async def fake_flush() -> Any:
            return {"flushed": await self._flush()}

        @app.post("/_fake/idle")
        @control
        async def fake_idle() -> Any:
            await self._idle(float((await body()).get("timeout", 10)))
            return {"idle": True}

        @app.post("/_fake/events/<event_id>/resend")
        @control
        async def fake_resend(event_id: str) -> Any:
            await self._resend(event_id)
            return {"resent": event_id}

        @app.get("/_fake/deliveries")
        @control
        async def fake_deliveries() -> Any:
            return {"deliveries": self.deliveries}

        @app.post("/_fake/reset")
        @control
        async def fake_reset() -> Any:
            self.reset()
            return {"reset": True}

        @app.post("/_fake/checkout/<cs_id>/pay")
        @control
        async def fake_pay(cs_id: str) -> Any:
            data = await body()
            return await self._pay(
                cs_id,
                str(data.pop("card", "4242424242424242")),
                data.pop("email", None),
                data.pop("name", None),
                **data,
            )

        @app.post("/_fake/tax_ids/<tax_id>/verification")
        @control
        async def fake_verify(tax_id: str) -> Any:
            data = await body()
            return await self._verify_flow(
                tax_id, str(data.get("status", "verified")), data.get("verified_name")
            )

        @app.post("/_fake/subscriptions/<sub_id>/<action>")
        @control
        async def fake_subscription(sub_id: str, action: str) -> Any:
            if action not in ("renew", "fail"):
                return {"error": {"type": "fake_error", "message": "renew or fail"}}, 404
            return await self._flow(self._renew if action == "renew" else self._fail, sub_id)

        @app.get("/_fake/objects/<object_id>")
        @control
        async def fake_object(object_id: str) -> Any:
            with self._lock:
                if object_id not in self.objects:
                    return {"error": {"type": "fake_error", "message": "unknown id"}}, 404
                return self._view(self.objects[object_id])

        @app.errorhandler(404)
        async def not_found(_exc: Exception) -> Any:
            return _unrecognized()

        @app.errorhandler(405)
        async def not_allowed(_exc: Exception) -> Any:
            return _unrecognized()

    def _authenticate(self) -> str:
        header = request.headers.get("Authorization", "")
        key = ""
        if header.lower().startswith("bearer "):
            key = header[7:].strip()
        elif header.lower().startswith("basic "):
            import base64

            with contextlib.suppress(ValueError):
                key = base64.b64decode(header[6:]).decode().split(":", 1)[0]
        if not key:
            raise StripeError(
                401,
                "You did not provide an API key. You need to provide your API key in the "
                "Authorization header, using Bearer auth (e.g. 'Authorization: Bearer "
                "YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, "
                "or we can help at https://support.stripe.com/.",
            )
        if key != self.api_key:
            shown = key[:8] + "*" * max(0, len(key) - 12) + key[-4:] if len(key) > 12 else key
            raise StripeError(401, f"Invalid API Key provided: {shown}", code="api_key_invalid")
        return key

    # ---------------------------------------------------------------- HTML

    def _pay_page(self, session: dict[str, Any], error: str | None = None, form: Any = None) -> str:
        esc = html.escape
        items = self._line_items.get(session["id"], [])
        rows = "".join(
            f"<tr><td>{esc(li['description'])} \u00d7 {li['quantity']}"
            + (
                f" <small>/ {esc(li['price']['recurring']['interval'])}</small>"
                if li["price"]["recurring"]
                else ""
            )
            + f"</td><td class=r>{esc(_money(li['amount_total'], li['currency']))}</td></tr>"
            for li in items
        )
        total = esc(_money(session["amount_total"], session["currency"]))
        cancel = (
            f'<a id="cancel" href="{esc(session["cancel_url"])}">Cancel</a>'
            if session["cancel_url"]
            else ""
        )
        if session["status"] != "open":
            message = {
                "complete": "This payment is complete. Thank you!",
                "expired": "This Checkout Session has expired.",
            }[session["status"]]
            link = (
                f'<p><a href="{esc(self._redirect_for(session))}">Continue</a></p>'
                if session["status"] == "complete" and session["success_url"]
                else ""
            )
            return _page("Checkout", f"<p class=msg>{message}</p>{link}")
        customer = self.objects.get(session["customer"] or "")
        known_email = (customer or {}).get("email") or session["customer_email"]
        card = esc((form or {}).get("card_number", "4242 4242 4242 4242"))
        email_field = (
            f"<p>Email: <b>{esc(known_email)}</b></p>"
            if known_email
            else '<label>Email <input name="email" type="email" '
            'value="customer@example.com"></label>'
        )
        err = f'<p class=err role="alert">{esc(error)}</p>' if error else ""
        holder = esc((customer or {}).get("name") or "Jenny Rosen")
        values = dict(form or {})
        tax_row = ""
        if session["automatic_tax"]["enabled"]:
            amount_tax = session["total_details"]["amount_tax"]
            tax_text = (
                esc(_money(amount_tax, session["currency"]))
                if session["automatic_tax"]["status"] == "complete"
                else "Calculated from your address"
            )
            tax_row = f'<tr><td>Tax</td><td class=r id="tax">{tax_text}</td></tr>'
        address_fields = ""
        if (
            session["billing_address_collection"] == "required"
            or session["automatic_tax"]["enabled"]
        ):
            saved = (customer or {}).get("address") or GERMAN_ADDRESS
            country = values.get("country") or saved.get("country") or "DE"
            options = "".join(
                f'<option value="{c}"{" selected" if c == country else ""}>{c}</option>'
                for c in sorted(set(EU_RATES) | {"GB", "CH", "NO", "US", country})
            )

            def field(key: str, label: str, auto: str) -> str:
                value = esc(values.get(key) or saved.get(key) or "")
                return (
                    f'<label>{label} <input name="{key}" autocomplete="{auto}" '
                    f'value="{value}"></label>'
                )

            address_fields = (
                "<fieldset><legend>Billing address</legend>"
                + field("line1", "Address", "address-line1")
                + "<div class=row>"
                + field("postal_code", "Postal code", "postal-code")
                + field("city", "City", "address-level2")
                + "</div>"
                + f'<label>Country <select name="country" autocomplete="country">{options}'
                + "</select></label></fieldset>"
            )
        business_fields = ""
        collection = session["tax_id_collection"] or {}
        if collection.get("enabled"):
            checked = " checked" if values.get("is_business") else ""
            business_fields = (
                f'<label class=check><input type="checkbox" name="is_business" value="1"{checked}>'
                " I\u2019m purchasing as a business</label>"
                f'<label>Business name <input name="business_name" '
                f'value="{esc(values.get("business_name") or "")}"></label>'
                f'<label>Tax ID <input name="tax_id" placeholder="DE123456789" '
                f'value="{esc(values.get("tax_id") or "")}"></label>'
            )
        consent = session["consent_collection"] or {}
        texts = session["custom_text"] or {}
        tos = ""
        if consent.get("terms_of_service") == "required":
            label = (texts.get("terms_of_service_acceptance") or {}).get(
                "message"
            ) or "I agree to the Terms of Service"
            tos = (
                '<input type="hidden" name="tos_shown" value="1">'
                f'<label class=check><input type="checkbox" name="tos" value="1" checked> '
                f"{esc(label)}</label>"
            )
        submit_note = (
            f"<p class=note>{esc(texts['submit']['message'])}</p>" if texts.get("submit") else ""
        )
        body = f"""
<p class=merchant>{ACCOUNT_NAME} (test mode)</p>
<table>{rows}{tax_row}
<tr class=total><td>Total</td><td class=r id="amount">{total}</td></tr></table>
{err}
<form method="post" action="/pay/{esc(session["id"])}">
  {email_field}
  <label>Card number <input name="card_number" inputmode="numeric" autocomplete="cc-number"
    value="{card}"></label>
  <div class=row><label>Expiry <input name="exp" value="12 / 34"></label>
  <label>CVC <input name="cvc" value="123"></label></div>
  <label>Name on card <input name="name" value="{holder}">
  </label>
  {address_fields}
  {business_fields}
  {tos}
  {submit_note}
  <button type="submit">Pay</button>
</form>
<p>{cancel}</p>"""
        return _page("Checkout", body)

    def _document_lines(self, doc: dict[str, Any]) -> list[str]:
        """The text of an invoice or credit note, as its hosted page and PDF show it."""
        currency = doc["currency"]

        def day(ts: int | None) -> str:
            return datetime.fromtimestamp(ts or 0, UTC).strftime("%Y-%m-%d")

        def tax_line(tax: dict[str, Any]) -> str:
            rate = self.objects.get(tax["tax_rate_details"]["tax_rate"], {})
            percent = f"{rate.get('percentage', 0):g} %"
            kind = " incl." if tax["tax_behavior"] == "inclusive" else ""
            reason = " (reverse charge)" if tax["taxability_reason"] == "reverse_charge" else ""
            return (
                f"{rate.get('display_name', 'Tax')} {rate.get('country') or ''} {percent}{kind}"
                f" on {_money(tax['taxable_amount'] or 0, currency)}{reason}: "
                f"{_money(tax['amount'], currency)}"
            )

        if doc["object"] == "credit_note":
            invoice = self.objects[doc["invoice"]]
            out = [
                f"Credit note {doc['number']}",
                f"Invoice: {invoice['number']}",
                f"Date of issue: {day(doc['created'])}",
                f"Status: {doc['status']}",
                f"{ACCOUNT_NAME}, {ACCOUNT_COUNTRY}",
                f"Bill to: {invoice['customer_name'] or ''}",
            ]
            out += [
                f"{li['description'] or 'Credit'}: {_money(li['amount'], currency)}"
                for li in doc["lines"]["data"]
            ]
            out += [tax_line(t) for t in doc["total_taxes"] or []]
            out.append(f"Total credited: {_money(doc['total'], currency)}")
            if doc["reason"]:
                out.append(f"Reason: {doc['reason']}")
            if doc["memo"]:
                out.append(doc["memo"])
            return out
        address = _one_line(doc["customer_address"])
        out = [
            f"Invoice {doc['number']}",
            f"Date of issue: {day(doc['effective_at'] or doc['created'])}",
            f"Status: {doc['status']}",
            f"{doc['account_name']}, {doc['account_country']}",
            f"Bill to: {doc['customer_name'] or ''}",
        ]
        if address:
            out.append(address)
        out += [f"{t['type']}: {t['value']}" for t in doc["customer_tax_ids"] or []]
        out += [
            f"{li['description']} x {li['quantity']}: {_money(li['amount'], currency)}"
            for li in doc["lines"]["data"]
        ]
        out.append(f"Subtotal: {_money(doc['subtotal'], currency)}")
        out += [tax_line(t) for t in doc["total_taxes"] or []]
        out.append(f"Total: {_money(doc['total'], currency)}")
        out.append(f"Amount paid: {_money(doc['amount_paid'], currency)}")
        if doc["post_payment_credit_notes_amount"]:
            out.append(f"Credited: {_money(doc['post_payment_credit_notes_amount'], currency)}")
        if doc["customer_tax_exempt"] == "reverse":
            out.append("Reverse charge")
        out += [f"{f['name']}: {f['value']}" for f in doc["custom_fields"] or []]
        if doc["description"]:
            out.append(doc["description"])
        if doc["footer"]:
            out += doc["footer"].splitlines()
        return out

    def _invoice_page(self, invoice: dict[str, Any]) -> str:
        esc = html.escape
        lines = self._document_lines(invoice)
        body = (
            f"<p class=merchant>{ACCOUNT_NAME} (test mode)</p>"
            + "".join(f"<p>{esc(line)}</p>" for line in lines[1:])
            + f'<p><a id="pdf" href="{esc(invoice["invoice_pdf"])}">Download invoice</a></p>'
        )
        return _page(lines[0], body)

    def _portal_page(self, portal: dict[str, Any]) -> str:
        esc = html.escape
        customer = self.objects[portal["customer"]]
        rows = []
        for sub in self._all("subscription"):
            if sub["customer"] != customer["id"]:
                continue
            item = self._view(sub)["items"]["data"][0]
            price = item["price"]
            product = self.objects[price["product"]]["name"]
            end = datetime.fromtimestamp(item["current_period_end"], UTC).strftime("%Y-%m-%d")
            amount = _money(price["unit_amount"] * item["quantity"], price["currency"])
            interval = price["recurring"]["interval"]
            if sub["status"] == "canceled":
                state, action = "Canceled", ""
            elif sub["cancel_at_period_end"]:
                state = f"Cancels on {end}"
                action = "renew", "Renew subscription"
            else:
                state = f"{sub['status'].replace('_', ' ').capitalize()}, renews on {end}"
                action = "cancel", "Cancel subscription"
            button = (
                f'<form method="post" action="/portal/{esc(portal["id"])}/subscriptions/'
                f'{esc(sub["id"])}/{action[0]}"><button type="submit">{action[1]}</button></form>'
                if action
                else ""
            )
            rows.append(
                f'<div class=sub id="{esc(sub["id"])}"><b>{esc(product)}</b> '
                f"{esc(amount)} / {esc(interval)}<br><span class=state>{esc(state)}</span>"
                f"{button}</div>"
            )
        back = (
            f'<p><a id="return" href="{esc(portal["return_url"])}">Return</a></p>'
            if portal["return_url"]
            else ""
        )
        body = (
            f"<p class=merchant>{ACCOUNT_NAME} (test mode)</p>"
            f"<p>{esc(customer['email'] or customer['id'])}</p>"
            f"<h2>Subscriptions</h2>{''.join(rows) or '<p>No subscriptions.</p>'}{back}"
        )
        return _page("Billing", body)


def _plain(value: Any) -> Any:
    """Parsed form data with arrays (digit-keyed dicts) as lists."""
    if isinstance(value, dict):
        if value and all(k.isdigit() for k in value):
            return [_plain(value[k]) for k in sorted(value, key=int)]
        return {k: _plain(v) for k, v in value.items()}
    return value


def _raise(exc: Exception) -> Any:
    raise exc


def _nested(p: Params, name: str, allowed: set[str], *, prefix: str = "") -> Params | None:
    """The nested object parameter ``name`` (None when absent), unknown keys refused."""
    full = f"{prefix}[{name}]" if prefix else name
    raw = p.data.get(name)
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise invalid(full, "Invalid object", "parameter_invalid_object")
    for key in raw:
        if key not in allowed:
            raise unknown_param(f"{full}[{key}]")
    return Params(raw)


def _one_line(address: dict[str, Any] | None) -> str | None:
    if not address:
        return None
    parts = [
        address.get("line1"),
        address.get("line2"),
        " ".join(x for x in (address.get("postal_code"), address.get("city")) if x),
        address.get("country"),
    ]
    return ", ".join(x for x in parts if x) or None


def _ok(status: int | None) -> bool:
    return status is not None and 200 <= status < 300


def _brand_of(number: str) -> str:
    if number.startswith("4"):
        return "visa"
    if number[:2] in {"51", "52", "53", "54", "55"} or number.startswith("2"):
        return "mastercard"
    if number[:2] in {"34", "37"}:
        return "amex"
    return "unknown"


def _plan_of(price: dict[str, Any]) -> dict[str, Any]:
    rec = price["recurring"] or {}
    return {
        "id": price["id"],
        "object": "plan",
        "active": price["active"],
        "amount": price["unit_amount"],
        "amount_decimal": price["unit_amount_decimal"],
        "billing_scheme": "per_unit",
        "created": price["created"],
        "currency": price["currency"],
        "interval": rec.get("interval"),
        "interval_count": rec.get("interval_count"),
        "livemode": False,
        "metadata": dict(price["metadata"]),
        "meter": None,
        "nickname": price["nickname"],
        "product": price["product"],
        "tiers_mode": None,
        "transform_usage": None,
        "trial_period_days": None,
        "usage_type": rec.get("usage_type", "licensed"),
    }


def _pdf(lines: list[str]) -> bytes:
    """A small, valid one-page PDF (Helvetica text) with ``lines``; euro signs as "EUR"."""

    def text(line: str) -> str:
        line = line.replace("\u20ac", "EUR ").replace("\u00d7", "x")
        line = line.encode("latin-1", "replace").decode("latin-1")
        return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    ops = ["BT", "/F1 11 Tf", "14 TL", "56 790 Td"]
    for i, line in enumerate(lines[:50]):
        ops.append(f"({text(line)}) Tj T*" if i else f"/F1 16 Tf ({text(line)}) Tj T* /F1 11 Tf")
    ops.append("ET")
    stream = "\n".join(ops).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(out)


def _json(answer: Any, status: int, request_id: str) -> Response:
    response = Response(
        json.dumps(answer, indent=2), status=status, content_type="application/json"
    )
    response.headers["Request-Id"] = request_id
    response.headers["Stripe-Version"] = API_VERSION
    return response


def _unrecognized_answer() -> Any:
    raise StripeError(
        404,
        f"Unrecognized request URL ({request.method}: {request.path}). Please see "
        "https://stripe.com/docs or we can help at https://support.stripe.com/.",
    )


def _unrecognized() -> Any:
    if request.path.startswith("/v1/"):
        return _json(
            {
                "error": {
                    "message": f"Unrecognized request URL ({request.method}: {request.path}). "
                    "Please see https://stripe.com/docs or we can help at "
                    "https://support.stripe.com/.",
                    "type": "invalid_request_error",
                }
            },
            404,
            _rand_id("req", 14),
        )
    return _page("Not found", "<p>Not found.</p>"), 404


def _page(title: str, body: str) -> str:
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} - {ACCOUNT_NAME}</title>
<style>
body{{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;
color:#1a1f36}}
.merchant{{color:#697386}} table{{width:100%;border-collapse:collapse;margin:1rem 0}}
td{{padding:.3rem 0}} .r{{text-align:right}} .total td{{border-top:1px solid #ddd;font-weight:600}}
label{{display:block;margin:.6rem 0}} input{{display:block;width:100%;padding:.5rem;
box-sizing:border-box;border:1px solid #ccd;border-radius:4px}}
.row{{display:flex;gap:.5rem}} .row label{{flex:1}}
button{{width:100%;padding:.7rem;margin-top:.8rem;background:#635bff;color:#fff;border:0;
border-radius:4px;font-size:1rem}}
.err{{color:#df1b41}} fieldset{{border:0;padding:0;margin:.6rem 0}}
label.check{{display:flex;gap:.5rem;align-items:center}} label.check input{{width:auto}}
select{{display:block;width:100%;padding:.5rem}}
.sub{{border:1px solid #ddd;border-radius:4px;padding:.7rem;margin:.5rem 0}}
</style></head><body><h1>{html.escape(title)}</h1>{body}</body></html>"""


def run_fake_stripe(
    port: int | None = None,
    api_key: str = DEFAULT_API_KEY,
    *,
    webhook_url: str | None = None,
    webhook_secret: str | None = None,
    webhook_verify: ssl.SSLContext | bool = True,
) -> contextlib.AbstractContextManager[FakeStripe]:
    """Serve a fresh :class:`FakeStripe` on 127.0.0.1 in a background thread."""
    fake = FakeStripe(
        api_key=api_key,
        webhook_url=webhook_url,
        webhook_secret=webhook_secret,
        webhook_verify=webhook_verify,
    )
    return serving(fake, port)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Fake Stripe API on 127.0.0.1")
    parser.add_argument("--port", type=int, default=12111)
    parser.add_argument("--api-key", default=DEFAULT_API_KEY)
    parser.add_argument("--webhook-url")
    parser.add_argument("--webhook-secret")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    fake = FakeStripe(
        api_key=args.api_key,
        webhook_url=args.webhook_url,
        webhook_secret=args.webhook_secret,
        base_url=f"http://127.0.0.1:{args.port}",
    )
    sock = fake.bind(args.port)
    print(f"Fake Stripe on {fake.base_url} (api key {fake.api_key})", flush=True)
    if fake.webhook:
        print(f"Webhooks -> {fake.webhook.url}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(fake.serve(sock))


if __name__ == "__main__":
    main()
