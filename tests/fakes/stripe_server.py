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
``POST /_fake/checkout/<cs_id>/pay``, ``POST /_fake/subscriptions/<id>/renew``,
``POST /_fake/subscriptions/<id>/fail``, ``GET /_fake/objects/<id>``.
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
import secrets
import string
import threading
import time
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
DAY = 86_400

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
        "address balance description email expand invoice_prefix invoice_settings metadata name "
        "next_invoice_sequence payment_method phone preferred_locales shipping tax tax_exempt "
        "test_clock"
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
        "payment_method_options payment_method_types phone_number_collection "
        "redirect_on_completion return_url saved_payment_method_options "
        "shipping_address_collection shipping_options submit_type subscription_data success_url "
        "tax_id_collection ui_mode"
    ),
    "portal_create": _names(
        "configuration customer expand flow_data locale on_behalf_of return_url"
    ),
    "subscription_update": _names(
        "cancel_at cancel_at_period_end cancellation_details default_payment_method description "
        "expand metadata proration_behavior"
    ),
    "subscription_cancel": _names("cancellation_details expand invoice_now prorate"),
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
    ) -> None:
        super().__init__()
        self.api_key = api_key
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

    def now(self) -> int:
        return int(time.time())

    def _store(self, obj: dict[str, Any]) -> dict[str, Any]:
        self.objects[obj["id"]] = obj
        return obj

    def _get(self, kind: str, object_id: str, *, param: str = "id", status: int = 404) -> Any:
        obj = self.objects.get(object_id)
        if obj is None or obj.get("object") != kind:
            raise missing(RESOURCE_NAMES.get(kind, kind), object_id, param=param, status=status)
        return obj

    def _all(self, kind: str) -> list[dict[str, Any]]:
        """Objects of a kind, newest first (Stripe's list order)."""
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
        if kind == "invoice" and name == "payments":
            return self._list_object(
                self._invoice_payments.get(obj["id"], []), "/v1/invoice_payments"
            )
        return None

    def _render(self, obj: dict[str, Any], expand: list[str]) -> dict[str, Any]:
        view = self._view(obj)
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

    def _customer(self, p: Params) -> dict[str, Any]:
        now = self.now()
        return {
            "id": _rand_id("cus", 14),
            "object": "customer",
            "address": None,
            "balance": 0,
            "created": now,
            "currency": None,
            "default_source": None,
            "delinquent": False,
            "description": p.str("description"),
            "discount": None,
            "email": p.str("email"),
            "invoice_prefix": "".join(secrets.choice(string.ascii_uppercase) for _ in range(8)),
            "invoice_settings": {
                "custom_fields": None,
                "default_payment_method": None,
                "footer": None,
                "rendering_options": None,
            },
            "livemode": False,
            "metadata": p.metadata(),
            "name": p.str("name"),
            "next_invoice_sequence": 1,
            "phone": p.str("phone"),
            "preferred_locales": p.list_of_str("preferred_locales"),
            "shipping": None,
            "tax_exempt": "none",
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
            "tax_behavior": p.str("tax_behavior") or "unspecified",
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
        ui_mode = p.enum("ui_mode", ["custom", "embedded", "hosted"]) or "hosted"
        if ui_mode != "hosted":
            raise invalid("ui_mode", "The fake Stripe server supports only `hosted` sessions.")
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
            self._get("customer", customer_id, param="customer", status=400)
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
                "enabled": False,
                "liability": None,
                "provider": None,
                "status": None,
            },
            "billing_address_collection": p.str("billing_address_collection"),
            "cancel_url": p.str("cancel_url"),
            "client_reference_id": p.str("client_reference_id"),
            "client_secret": None,
            "collected_information": None,
            "consent": None,
            "consent_collection": None,
            "created": now,
            "currency": items[0][0]["currency"],
            "currency_conversion": None,
            "custom_fields": [],
            "custom_text": {
                "after_submit": None,
                "shipping_address": None,
                "submit": None,
                "terms_of_service_acceptance": None,
            },
            "customer": customer_id,
            "customer_creation": (customer_creation or "if_required")
            if mode == "payment"
            else None,
            "customer_details": None,
            "customer_email": customer_email,
            "discounts": [],
            "expires_at": expires_at,
            "invoice": None,
            "invoice_creation": (
                {
                    "enabled": False,
                    "invoice_data": {
                        "account_tax_ids": None,
                        "custom_fields": None,
                        "description": None,
                        "footer": None,
                        "issuer": None,
                        "metadata": {},
                        "rendering_options": None,
                    },
                }
                if mode == "payment"
                else None
            ),
            "livemode": False,
            "locale": p.str("locale"),
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
            "submit_type": p.str("submit_type"),
            "subscription": None,
            "success_url": p.str("success_url"),
            "total_details": {"amount_discount": 0, "amount_shipping": 0, "amount_tax": 0},
            "ui_mode": "hosted",
            "url": f"{self.base_url}/pay/{cs_id}",
            # Kept out of answers (see _view_session): what the payment will copy.
            "_subscription_metadata": sub_data.metadata(),
            "_subscription_description": sub_data.str("description"),
            "_payment_intent_metadata": pi_data.metadata(),
            "_payment_intent_description": pi_data.str("description"),
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
    ) -> dict[str, Any]:
        now = self.now()
        customer = self.objects[sub["customer"]]
        in_id = _rand_id("in")
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
                )
            )
        for price, quantity in extra_lines:
            lines.append(self._invoice_line(in_id, price, quantity, sub, None, (now, now)))
        total = sum(line["amount"] for line in lines)
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
        number = f"{customer['invoice_prefix']}-{customer['next_invoice_sequence']:04d}"
        customer["next_invoice_sequence"] += 1
        paid = not decline
        invoice = {
            "id": in_id,
            "object": "invoice",
            "account_country": "US",
            "account_name": ACCOUNT_NAME,
            "account_tax_ids": None,
            "amount_due": total,
            "amount_overpaid": 0,
            "amount_paid": total if paid else 0,
            "amount_remaining": 0 if paid else total,
            "amount_shipping": 0,
            "application": None,
            "attempt_count": 1,
            "attempted": True,
            "auto_advance": not paid,
            "automatic_tax": {
                "disabled_reason": None,
                "enabled": False,
                "liability": None,
                "provider": None,
                "status": None,
            },
            "automatically_finalizes_at": None,
            "billing_reason": reason,
            "collection_method": "charge_automatically",
            "confirmation_secret": None,
            "created": now,
            "currency": sub["currency"],
            "custom_fields": None,
            "customer": customer["id"],
            "customer_address": None,
            "customer_email": customer["email"],
            "customer_name": customer["name"],
            "customer_phone": None,
            "customer_shipping": None,
            "customer_tax_exempt": "none",
            "customer_tax_ids": [],
            "default_payment_method": None,
            "default_source": None,
            "default_tax_rates": [],
            "description": None,
            "discounts": [],
            "due_date": None,
            "effective_at": now,
            "ending_balance": 0,
            "footer": None,
            "from_invoice": None,
            "hosted_invoice_url": f"{self.base_url}/invoices/{in_id}",
            "invoice_pdf": f"{self.base_url}/invoices/{in_id}/pdf",
            "issuer": {"type": "self"},
            "last_finalization_error": None,
            "latest_revision": None,
            "lines": {
                "object": "list",
                "data": lines,
                "has_more": False,
                "total_count": len(lines),
                "url": f"/v1/invoices/{in_id}/lines",
            },
            "livemode": False,
            "metadata": {},
            "next_payment_attempt": None if paid else now + 3 * DAY,
            "number": number,
            "on_behalf_of": None,
            "parent": {
                "quote_details": None,
                "subscription_details": {
                    "metadata": dict(sub["metadata"]),
                    "subscription": sub["id"],
                },
                "type": "subscription_details",
            },
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
            "status": "paid" if paid else "open",
            "status_transitions": {
                "finalized_at": now,
                "marked_uncollectible_at": None,
                "paid_at": now if paid else None,
                "voided_at": None,
            },
            "subtotal": total,
            "subtotal_excluding_tax": total,
            "test_clock": None,
            "total": total,
            "total_discount_amounts": [],
            "total_excluding_tax": total,
            "total_pretax_credit_amounts": [],
            "total_taxes": [],
            "webhooks_delivered_at": now,
        }
        self._invoice_payments[in_id] = [
            {
                "id": _rand_id("inpay"),
                "object": "invoice_payment",
                "amount_paid": total if paid else None,
                "amount_requested": total,
                "created": now,
                "currency": sub["currency"],
                "invoice": in_id,
                "is_default": True,
                "livemode": False,
                "payment": {"type": "payment_intent", "payment_intent": pi["id"]},
                "status": "paid" if paid else "open",
                "status_transitions": {"canceled_at": None, "paid_at": now if paid else None},
            }
        ]
        return self._store(invoice)

    def _invoice_line(
        self,
        in_id: str,
        price: dict[str, Any],
        quantity: int,
        sub: dict[str, Any],
        item: dict[str, Any] | None,
        period: tuple[int, int],
    ) -> dict[str, Any]:
        product = self.objects[price["product"]]
        amount = price["unit_amount"] * quantity
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
                    "subscription": sub["id"],
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
            "subscription": sub["id"],
            "taxes": [],
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

    # ---------------------------------------------------------------- flows

    def _complete(
        self, cs_id: str, card: str, email: str | None = None, name: str | None = None
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Pay an open session. Raises StripeError (402 card_error on a decline)."""
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
            if customer is None and (
                session["mode"] == "subscription" or session["customer_creation"] == "always"
            ):
                fields = {"email": email, "name": name}
                customer = self._store(
                    self._customer(Params({k: v for k, v in fields.items() if v}))
                )
            customer_id = customer["id"] if customer else None
            pm = self._payment_method(number, brand, customer_id, email, name)
            items = [
                (self.objects[li["price"]["id"]], li["quantity"]) for li in self._line_items[cs_id]
            ]
            events: list[dict[str, Any]] = []
            session["status"] = "complete"
            session["payment_status"] = "paid"
            session["customer"] = customer_id
            session["url"] = None
            session["customer_details"] = {
                "address": copy.deepcopy(pm["billing_details"]["address"]),
                "business_name": None,
                "email": email,
                "individual_name": None,
                "name": name,
                "phone": None,
                "tax_exempt": "none",
                "tax_ids": [],
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
                invoice = self._invoice(
                    sub,
                    "subscription_create",
                    pm,
                    period=(sub["created"], sub["created"]),
                    extra_lines=one_time,
                )
                sub["latest_invoice"] = invoice["id"]
                session["subscription"] = sub["id"]
                session["invoice"] = invoice["id"]
                events.append(self._event("customer.subscription.created", sub))
                events.append(self._event("invoice.paid", invoice))
                events.append(self._event("invoice.payment_succeeded", invoice))
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
            events.append(self._event("checkout.session.completed", session))
            return session, events

    def _redirect_for(self, session: dict[str, Any]) -> str:
        if session["success_url"]:
            return _fill_template(session["success_url"], session["id"])
        return f"{self.base_url}/pay/{session['id']}"

    async def _pay(
        self, cs_id: str, card: str, email: str | None = None, name: str | None = None
    ) -> dict[str, Any]:
        session, events = self._complete(cs_id, card, email, name)
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
                now = self.now()
                pm = self.objects[sub["default_payment_method"]]
                pi, _charge = self._payment_intent(
                    invoice["amount_due"],
                    invoice["currency"],
                    sub["customer"],
                    pm,
                    description="Subscription update",
                )
                invoice.update(
                    amount_paid=invoice["amount_due"],
                    amount_remaining=0,
                    attempt_count=invoice["attempt_count"] + 1,
                    auto_advance=False,
                    next_payment_attempt=None,
                    status="paid",
                )
                invoice["status_transitions"]["paid_at"] = now
                payment = self._invoice_payments[invoice["id"]][0]
                payment.update(amount_paid=invoice["amount_due"], status="paid")
                payment["payment"]["payment_intent"] = pi["id"]
                payment["status_transitions"]["paid_at"] = now
            else:
                self._advance(sub)
                invoice = self._invoice(
                    sub,
                    "subscription_cycle",
                    self.objects[sub["default_payment_method"]],
                    period=(
                        before["items"]["data"][0]["current_period_start"],
                        before["items"]["data"][0]["current_period_end"],
                    ),
                )
                sub["latest_invoice"] = invoice["id"]
            sub["status"] = "active"
            events.append(self._event("invoice.paid", invoice))
            events.append(self._event("invoice.payment_succeeded", invoice))
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
            else:
                self._advance(sub)
                invoice = self._invoice(
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
            events = [self._event("invoice.payment_failed", invoice)]
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

    # ---------------------------------------------------------------- public Python API

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
            self._http = httpx.AsyncClient()

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
        def customer_create(p: Params, _info: Any) -> Any:
            p.check_known(ALLOWED["customer_create"])
            with self._lock:
                return self._render(self._store(self._customer(p)), p.expand())

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
            p.check_known(ALLOWED["customer_create"] - {"payment_method", "test_clock"})
            with self._lock:
                customer = self._get("customer", object_id)
                for name in ("email", "name", "description", "phone"):
                    if p.has(name):
                        customer[name] = p.str(name, empty_ok=True) or None
                customer["metadata"] = p.metadata(existing=customer["metadata"])
                return self._render(customer, p.expand())

        # ------------------------------------------------ products

        @api("/v1/products", ["POST"])
        def product_create(p: Params, _info: Any) -> Any:
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
            p.check_known(ALLOWED["price_create"])
            with self._lock:
                return self._render(self._store(self._price(p)), p.expand())

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
            p.check_known(ALLOWED["price_update"])
            with self._lock:
                price = self._get("price", object_id)
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

            def change(sub: dict[str, Any]) -> None:
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
                        or i["parent"]["subscription_details"]["subscription"] == subscription
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
            try:
                result = await self._pay(
                    cs_id,
                    form.get("card_number", ""),
                    form.get("email") or None,
                    form.get("name") or None,
                )
            except StripeError as exc:
                with self._lock:
                    return self._pay_page(session, error=exc.message, form=form), exc.status
            return redirect(result["redirect_url"], 303)

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
                str(data.get("card", "4242424242424242")),
                data.get("email"),
                data.get("name"),
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
        body = f"""
<p class=merchant>{ACCOUNT_NAME} (test mode)</p>
<table>{rows}<tr class=total><td>Total</td><td class=r id="amount">{total}</td></tr></table>
{err}
<form method="post" action="/pay/{esc(session["id"])}">
  {email_field}
  <label>Card number <input name="card_number" inputmode="numeric" autocomplete="cc-number"
    value="{card}"></label>
  <div class=row><label>Expiry <input name="exp" value="12 / 34"></label>
  <label>CVC <input name="cvc" value="123"></label></div>
  <label>Name on card <input name="name" value="{holder}">
  </label>
  <button type="submit">Pay</button>
</form>
<p>{cancel}</p>"""
        return _page("Checkout", body)

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


def _json(answer: Any, status: int, request_id: str) -> Response:
    response = Response(
        json.dumps(answer, indent=2), status=status, content_type="application/json"
    )
    response.headers["Request-Id"] = request_id
    response.headers["Stripe-Version"] = API_VERSION
    return response


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
.err{{color:#df1b41}} .sub{{border:1px solid #ddd;border-radius:4px;padding:.7rem;margin:.5rem 0}}
</style></head><body><h1>{html.escape(title)}</h1>{body}</body></html>"""


def run_fake_stripe(
    port: int | None = None,
    api_key: str = DEFAULT_API_KEY,
    *,
    webhook_url: str | None = None,
    webhook_secret: str | None = None,
) -> contextlib.AbstractContextManager[FakeStripe]:
    """Serve a fresh :class:`FakeStripe` on 127.0.0.1 in a background thread."""
    fake = FakeStripe(api_key=api_key, webhook_url=webhook_url, webhook_secret=webhook_secret)
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
