"""The fake Stripe server, driven through the official SDK over real HTTP."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
import stripe

from tests.fakes.stripe_server import FakeStripe, add_interval, parse_form, run_fake_stripe

SECRET = "whsec_test_secret"

# stripe.HTTPXClient posts a str as `data=`, which httpx 0.28 deprecates.
pytestmark = pytest.mark.filterwarnings("ignore:Use 'content=<...>':DeprecationWarning")


@dataclass
class Receiver:
    """A tiny webhook endpoint that records what it gets and can fail on purpose."""

    url: str = ""
    received: list[tuple[str, str]] = field(default_factory=list)  # (body, signature)
    fail_next: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def events(self) -> list[stripe.Event]:
        with self.lock:
            return [stripe.Webhook.construct_event(b, s, SECRET) for b, s in self.received]

    def types(self) -> list[str]:
        return [e.type for e in self.events()]


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    rec = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"])).decode()
            with rec.lock:
                failing = rec.fail_next > 0
                if failing:
                    rec.fail_next -= 1
                else:
                    rec.received.append((body, self.headers["Stripe-Signature"]))
            self.send_response(500 if failing else 200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    rec.url = f"http://127.0.0.1:{server.server_address[1]}/webhook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield rec
    server.shutdown()


@pytest.fixture(scope="module")
def server() -> Iterator[FakeStripe]:
    with run_fake_stripe() as fake:
        yield fake


@pytest.fixture
def fake(server: FakeStripe, receiver: Receiver) -> FakeStripe:
    server.reset()
    server.configure_webhook(receiver.url, SECRET)
    with receiver.lock:
        receiver.received.clear()
        receiver.fail_next = 0
    return server


@pytest.fixture
def client(fake: FakeStripe) -> stripe.StripeClient:
    return stripe.StripeClient(
        fake.api_key,
        base_addresses={"api": fake.base_url},
        http_client=stripe.HTTPXClient(allow_sync_methods=True),
        max_network_retries=0,
    )


def catalog(
    client: stripe.StripeClient, lookup_key: str | None = "pro_monthly"
) -> tuple[Any, Any, Any]:
    product = client.v1.products.create(params={"name": "Pro", "metadata": {"tier": "pro"}})
    monthly = client.v1.prices.create(
        params={
            "product": product.id,
            "unit_amount": 2900,
            "currency": "usd",
            "recurring": {"interval": "month"},
            "lookup_key": lookup_key,
        }
    )
    audit = client.v1.prices.create(
        params={"product": product.id, "unit_amount": 49900, "currency": "usd"}
    )
    return product, monthly, audit


def subscribe(client: stripe.StripeClient, fake: FakeStripe) -> tuple[Any, Any]:
    _, monthly, _ = catalog(client, lookup_key=None)
    customer = client.v1.customers.create(params={"email": "ada@example.com", "name": "Ada"})
    session = client.v1.checkout.sessions.create(
        params={
            "mode": "subscription",
            "customer": customer.id,
            "line_items": [{"price": monthly.id, "quantity": 1}],
            "success_url": "https://shop.test/ok?s={CHECKOUT_SESSION_ID}",
            "subscription_data": {"metadata": {"user": "7"}},
        }
    )
    fake.pay(session.id)
    return customer, client.v1.checkout.sessions.retrieve(session.id)


# ------------------------------------------------------------------ wire format


def test_parse_form_bracket_notation() -> None:
    pairs = [
        ("line_items[0][price]", "price_1"),
        ("line_items[0][quantity]", "2"),
        ("metadata[plan]", "pro"),
        ("expand[]", "a"),
        ("expand[]", "b"),
        ("subscription_data[metadata][k]", "v"),
    ]
    assert parse_form(pairs) == {
        "line_items": {"0": {"price": "price_1", "quantity": "2"}},
        "metadata": {"plan": "pro"},
        "expand": {"0": "a", "1": "b"},
        "subscription_data": {"metadata": {"k": "v"}},
    }


def test_add_interval_uses_calendar_months() -> None:
    jan31 = 1769817600  # 2026-01-31T00:00:00Z
    assert add_interval(jan31, "month") == 1772236800  # 2026-02-28
    assert add_interval(jan31, "year") == jan31 + 365 * 86400


# ------------------------------------------------------------------ catalog through the SDK


def test_customers_products_prices(client: stripe.StripeClient) -> None:
    customer = client.v1.customers.create(params={"email": "a@example.com", "metadata": {"u": "1"}})
    assert customer.id.startswith("cus_") and customer.object == "customer"
    assert customer.livemode is False and customer.metadata.to_dict() == {"u": "1"}
    updated = client.v1.customers.update(
        customer.id, params={"name": "Ada", "metadata": {"u": "", "v": "2"}}
    )
    assert updated.name == "Ada" and updated.metadata.to_dict() == {"v": "2"}
    assert client.v1.customers.retrieve(customer.id).email == "a@example.com"
    assert [c.id for c in client.v1.customers.list(params={"email": "a@example.com"}).data] == [
        customer.id
    ]

    product, monthly, audit = catalog(client)
    assert product.id.startswith("prod_") and product.active
    assert monthly.type == "recurring" and monthly.recurring.interval == "month"
    assert audit.type == "one_time" and audit.recurring is None
    listing = client.v1.prices.list(params={"lookup_keys": ["pro_monthly"]})
    assert listing.object == "list" and listing.url == "/v1/prices" and not listing.has_more
    assert [p.id for p in listing.data] == [monthly.id]
    assert [p.id for p in client.v1.products.list(params={"ids": [product.id]}).data] == [
        product.id
    ]
    assert {p.id for p in client.v1.prices.list(params={"product": product.id}).data} == {
        monthly.id,
        audit.id,
    }

    # A lookup key in use: refused, unless transferred.
    new_params = {
        "product": product.id,
        "unit_amount": 3900,
        "currency": "usd",
        "recurring": {"interval": "month"},
        "lookup_key": "pro_monthly",
    }
    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.prices.create(params=new_params)
    assert err.value.http_status == 400 and err.value.param == "lookup_key"
    newer = client.v1.prices.create(params={**new_params, "transfer_lookup_key": True})
    assert [p.id for p in client.v1.prices.list(params={"lookup_keys": ["pro_monthly"]}).data] == [
        newer.id
    ]
    assert client.v1.prices.retrieve(monthly.id).lookup_key is None

    # Archive.
    archived = client.v1.prices.update(monthly.id, params={"active": False})
    assert archived.active is False
    active_ids = {p.id for p in client.v1.prices.list(params={"active": True}).data}
    assert monthly.id not in active_ids and newer.id in active_ids
    assert client.v1.products.update(product.id, params={"active": False}).active is False


def test_errors_have_stripes_shape(client: stripe.StripeClient, fake: FakeStripe) -> None:
    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.customers.retrieve("cus_missing")
    assert err.value.http_status == 404 and err.value.code == "resource_missing"
    assert err.value.user_message == "No such customer: 'cus_missing'"
    assert err.value.param == "id"

    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.products.create(params={})
    assert err.value.code == "parameter_missing" and err.value.param == "name"

    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.customers.create(params={"colour": "blue"})  # type: ignore[typeddict-unknown-key]
    assert err.value.code == "parameter_unknown"

    bad = stripe.StripeClient(
        "sk_test_wrong_key_1234",
        base_addresses={"api": fake.base_url},
        http_client=stripe.HTTPXClient(allow_sync_methods=True),
    )
    with pytest.raises(stripe.AuthenticationError) as auth:
        bad.v1.customers.list()
    assert auth.value.http_status == 401
    assert "Invalid API Key provided" in str(auth.value.user_message)

    raw = httpx.get(f"{fake.base_url}/v1/customers/cus_nope", auth=(fake.api_key, ""))
    error = raw.json()["error"]
    assert raw.status_code == 404
    assert error["type"] == "invalid_request_error"
    assert error["doc_url"] == "https://stripe.com/docs/error-codes/resource-missing"
    assert raw.headers["Request-Id"].startswith("req_")
    assert httpx.get(f"{fake.base_url}/v1/customers").status_code == 401
    assert httpx.get(f"{fake.base_url}/v1/nothing", auth=(fake.api_key, "")).status_code == 404


def test_idempotent_replay(fake: FakeStripe) -> None:
    headers = {"Authorization": f"Bearer {fake.api_key}", "Idempotency-Key": "k1"}
    first = httpx.post(f"{fake.base_url}/v1/customers", data={"email": "a@x.io"}, headers=headers)
    again = httpx.post(f"{fake.base_url}/v1/customers", data={"email": "a@x.io"}, headers=headers)
    assert first.json()["id"] == again.json()["id"]
    assert again.headers["Idempotent-Replayed"] == "true"
    other = httpx.post(f"{fake.base_url}/v1/customers", data={"email": "b@x.io"}, headers=headers)
    assert other.status_code == 400 and other.json()["error"]["type"] == "idempotency_error"


# ------------------------------------------------------------------ checkout


async def test_subscription_checkout_async(fake: FakeStripe, receiver: Receiver) -> None:
    client = stripe.StripeClient(
        fake.api_key, base_addresses={"api": fake.base_url}, http_client=stripe.HTTPXClient()
    )
    product = await client.v1.products.create_async(params={"name": "Pro"})
    price = await client.v1.prices.create_async(
        params={
            "product": product.id,
            "unit_amount": 2900,
            "currency": "eur",
            "recurring": {"interval": "month"},
        }
    )
    customer = await client.v1.customers.create_async(params={"email": "ada@example.com"})
    session = await client.v1.checkout.sessions.create_async(
        params={
            "mode": "subscription",
            "customer": customer.id,
            "client_reference_id": "order-1",
            "line_items": [{"price": price.id, "quantity": 2}],
            "success_url": "https://shop.test/ok?session_id={CHECKOUT_SESSION_ID}",
            "cancel_url": "https://shop.test/cancel",
            "metadata": {"order": "1"},
            "subscription_data": {"metadata": {"user": "7"}},
        }
    )
    assert session.id.startswith("cs_test_")
    assert session.status == "open" and session.payment_status == "unpaid"
    assert session.url == f"{fake.base_url}/pay/{session.id}"
    assert session.amount_total == 5800 and session.currency == "eur"
    assert session.expires_at == session.created + 86400
    assert session.subscription is None and session.payment_intent is None
    assert session.success_url.endswith("{CHECKOUT_SESSION_ID}")

    result = await fake.pay_async(session.id)
    assert result["redirect_url"] == f"https://shop.test/ok?session_id={session.id}"

    done = await client.v1.checkout.sessions.retrieve_async(
        session.id, params={"expand": ["subscription", "line_items"]}
    )
    assert done.status == "complete" and done.payment_status == "paid" and done.url is None
    assert done.client_reference_id == "order-1" and done.metadata.to_dict() == {"order": "1"}
    assert done.line_items.data[0].quantity == 2
    sub = done.subscription
    assert sub.id.startswith("sub_") and sub.status == "active" and sub.customer == customer.id
    assert sub.metadata.to_dict() == {"user": "7"}
    item = sub["items"].data[0]
    assert item.id.startswith("si_") and item.price.id == price.id and item.quantity == 2
    assert item.current_period_end == add_interval(item.current_period_start, "month")
    assert "current_period_end" not in sub

    sub = await client.v1.subscriptions.retrieve_async(
        sub.id, params={"expand": ["default_payment_method", "latest_invoice"]}
    )
    assert sub.default_payment_method.card.brand == "visa"
    assert sub.default_payment_method.card.last4 == "4242"
    invoice = sub.latest_invoice
    assert invoice.id == done.invoice and invoice.status == "paid" and invoice.amount_paid == 5800
    assert invoice.parent.subscription_details.subscription == sub.id
    assert invoice.billing_reason == "subscription_create"
    invoice = await client.v1.invoices.retrieve_async(
        invoice.id, params={"expand": ["payments.data.payment.payment_intent"]}
    )
    intent = invoice.payments.data[0].payment.payment_intent
    assert intent.status == "succeeded" and intent.amount == 5800
    listed = await client.v1.subscriptions.list_async(params={"customer": customer.id})
    assert [s.id for s in listed.data] == [sub.id]

    events = receiver.events()
    assert [e.type for e in events] == [
        "customer.subscription.created",
        "invoice.created",
        "invoice.finalized",
        "invoice.paid",
        "invoice.payment_succeeded",
        "checkout.session.completed",
    ]
    completed = events[-1]
    assert completed.id.startswith("evt_") and completed.livemode is False
    assert completed.data.object.subscription == sub.id
    assert completed.data.object.client_reference_id == "order-1"
    assert events[0].data.object.metadata.to_dict() == {"user": "7"}
    assert [d["status_code"] for d in fake.deliveries] == [200] * 6

    # Events API: newest first, type filter, limit.
    page = await client.v1.events.list_async(params={"limit": 2})
    assert [e.type for e in page.data] == [
        "checkout.session.completed",
        "invoice.payment_succeeded",
    ]
    assert page.has_more
    only = await client.v1.events.list_async(params={"type": "invoice.*"})
    assert {e.type for e in only.data} == {
        "invoice.created",
        "invoice.finalized",
        "invoice.paid",
        "invoice.payment_succeeded",
    }
    assert (await client.v1.events.retrieve_async(completed.id)).type == completed.type


def test_payment_checkout(
    client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver
) -> None:
    _, _, audit = catalog(client)
    session = client.v1.checkout.sessions.create(
        params={
            "mode": "payment",
            "customer_email": "bo@example.com",
            "customer_creation": "always",
            "line_items": [{"price": audit.id, "quantity": 1}],
            "success_url": "https://shop.test/ok",
            "payment_intent_data": {"metadata": {"order": "9"}},
        }
    )
    fake.pay(session.id, card="5555 5555 5555 4444")
    done = client.v1.checkout.sessions.retrieve(session.id, params={"expand": ["payment_intent"]})
    intent = done.payment_intent
    assert intent.id.startswith("pi_") and intent.status == "succeeded"
    assert intent.amount == 49900 and intent.metadata.to_dict() == {"order": "9"}
    assert done.customer is not None and done.customer_details.email == "bo@example.com"
    method = client.v1.payment_methods.retrieve(intent.payment_method)
    assert method.card.brand == "mastercard" and method.card.last4 == "4444"
    assert receiver.types() == ["payment_intent.succeeded", "checkout.session.completed"]


def test_checkout_validation(client: stripe.StripeClient) -> None:
    _, monthly, audit = catalog(client)
    base = {"success_url": "https://shop.test/ok"}
    with pytest.raises(stripe.InvalidRequestError, match="recurring price") as err:
        client.v1.checkout.sessions.create(
            params={**base, "mode": "payment", "line_items": [{"price": monthly.id, "quantity": 1}]}
        )
    assert err.value.http_status == 400
    with pytest.raises(stripe.InvalidRequestError, match="at least one recurring price"):
        client.v1.checkout.sessions.create(
            params={
                **base,
                "mode": "subscription",
                "line_items": [{"price": audit.id, "quantity": 1}],
            }
        )
    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.checkout.sessions.create(
            params={**base, "mode": "payment", "line_items": [{"price": "price_x", "quantity": 1}]}
        )
    assert (err.value.http_status, err.value.code, err.value.param) == (
        400,
        "resource_missing",
        "line_items[0][price]",
    )
    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.checkout.sessions.create(
            params={
                **base,
                "mode": "payment",
                "customer": "cus_nobody",
                "line_items": [{"price": audit.id, "quantity": 1}],
            }
        )
    assert err.value.code == "resource_missing" and err.value.param == "customer"
    assert err.value.user_message == "No such customer: 'cus_nobody'"
    with pytest.raises(stripe.InvalidRequestError, match="subscription_data"):
        client.v1.checkout.sessions.create(
            params={
                **base,
                "mode": "payment",
                "line_items": [{"price": audit.id, "quantity": 1}],
                "subscription_data": {"metadata": {"a": "b"}},
            }
        )


def test_declined_card_and_expire(
    client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver
) -> None:
    _, _, audit = catalog(client)
    session = client.v1.checkout.sessions.create(
        params={"mode": "payment", "line_items": [{"price": audit.id, "quantity": 1}]}
    )
    declined = httpx.post(
        f"{fake.base_url}/_fake/checkout/{session.id}/pay", json={"card": "4000000000000002"}
    )
    assert declined.status_code == 402
    assert declined.json()["error"]["decline_code"] == "generic_decline"
    page = httpx.post(
        f"{fake.base_url}/pay/{session.id}", data={"card_number": "4000 0000 0000 0002"}
    )
    assert "Your card was declined." in page.text
    assert client.v1.checkout.sessions.retrieve(session.id).status == "open"
    assert receiver.received == []

    expired = client.v1.checkout.sessions.expire(session.id)
    assert expired.status == "expired"
    assert receiver.types() == ["checkout.session.expired"]
    assert fake.events("checkout.session.expired")[0]["request"]["id"].startswith("req_")
    with pytest.raises(stripe.InvalidRequestError):
        client.v1.checkout.sessions.expire(session.id)
    again = httpx.post(f"{fake.base_url}/_fake/checkout/{session.id}/pay", json={})
    assert again.status_code == 400


def test_hosted_payment_page(client: stripe.StripeClient, fake: FakeStripe) -> None:
    _, monthly, _ = catalog(client)
    session = client.v1.checkout.sessions.create(
        params={
            "mode": "subscription",
            "customer_email": "cy@example.com",
            "line_items": [{"price": monthly.id, "quantity": 1}],
            "success_url": "https://shop.test/ok?session_id={CHECKOUT_SESSION_ID}",
            "cancel_url": "https://shop.test/pricing",
        }
    )
    page = httpx.get(session.url)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert ">Pay</button>" in page.text and "$29.00" in page.text
    assert "4242 4242 4242 4242" in page.text and 'href="https://shop.test/pricing"' in page.text
    assert "<script" not in page.text and "http" not in page.text.split("<body>")[0]
    paid = httpx.post(session.url, data={"card_number": "4242 4242 4242 4242"})
    assert paid.status_code == 303
    assert paid.headers["location"] == f"https://shop.test/ok?session_id={session.id}"
    done = client.v1.checkout.sessions.retrieve(session.id)
    assert done.status == "complete" and done.subscription.startswith("sub_")
    customer = client.v1.customers.retrieve(done.customer)
    assert customer.email == "cy@example.com"
    assert "complete" in httpx.get(session.url).text


# ------------------------------------------------------------------ delivery options


def test_delivery_order_duplicates_hold(
    client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver
) -> None:
    normal = [
        "customer.subscription.created",
        "invoice.created",
        "invoice.finalized",
        "invoice.paid",
        "invoice.payment_succeeded",
        "checkout.session.completed",
    ]
    fake.set_delivery(order="reverse")
    subscribe(client, fake)
    assert receiver.types() == normal[::-1]

    def shuffled(seed: int) -> list[str]:
        receiver.received.clear()
        fake.set_delivery(order="shuffle", seed=seed)
        subscribe(client, fake)
        return receiver.types()

    assert shuffled(3) == shuffled(3)
    assert sorted(shuffled(4)) == sorted(normal)

    receiver.received.clear()
    fake.set_delivery(order="normal", duplicates=2)
    subscribe(client, fake)
    ids = [e.id for e in receiver.events()]
    assert len(ids) == 18 and len(set(ids)) == 6
    assert sum(d["duplicate"] for d in fake.deliveries[-18:]) == 12

    receiver.received.clear()
    response = httpx.post(f"{fake.base_url}/_fake/delivery", json={"duplicates": 0, "hold": True})
    assert response.json()["hold"] is True
    subscribe(client, fake)
    assert receiver.received == []
    assert httpx.post(f"{fake.base_url}/_fake/flush").json() == {"flushed": 6}
    assert receiver.types() == normal


def test_retries_and_resend(
    client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver
) -> None:
    fake.set_delivery(backoff=0.01)
    receiver.fail_next = 2
    subscribe(client, fake)
    first = fake.deliveries[0]
    assert first["status_code"] == 500 and first["attempt"] == 1
    # Every event arrives once; the failed ones were retried after the others.
    assert sorted(receiver.types()) == sorted(e["type"] for e in fake.events())
    assert [d["attempt"] for d in fake.deliveries if d["status_code"] == 500] == [1, 1]
    retried = [d for d in fake.deliveries if d["attempt"] == 2]
    assert len(retried) == 2 and all(d["status_code"] == 200 for d in retried)

    event_id = fake.events()[0]["id"]
    receiver.received.clear()
    assert httpx.post(f"{fake.base_url}/_fake/events/{event_id}/resend").status_code == 200
    assert [e.id for e in receiver.events()] == [event_id]

    # An endpoint that never answers: three tries, then given up.
    fake.configure_webhook("http://127.0.0.1:9/unreachable", SECRET)
    fake.resend(event_id)
    tries = [d for d in fake.deliveries if d["url"].endswith("/unreachable")]
    assert [d["attempt"] for d in tries] == [1, 2, 3]
    assert all(d["status_code"] is None and d["error"] for d in tries)
    deliveries = httpx.get(f"{fake.base_url}/_fake/deliveries").json()["deliveries"]
    assert {"event_id", "type", "status_code"} <= set(deliveries[0])


def test_async_delivery_and_wait_idle(
    client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver
) -> None:
    fake.set_delivery(wait=False)
    subscribe(client, fake)
    fake.wait_idle()
    assert len(receiver.received) == 6


# ------------------------------------------------------------------ subscriptions and portal


def test_subscription_lifecycle(
    client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver
) -> None:
    customer, session = subscribe(client, fake)
    sub_id = session.subscription
    start = client.v1.subscriptions.retrieve(sub_id)["items"].data[0]
    receiver.received.clear()

    renewed = fake.renew(sub_id)
    item = renewed["items"]["data"][0]
    assert item["current_period_start"] == start.current_period_end
    assert receiver.types() == [
        "invoice.created",
        "invoice.finalized",
        "invoice.paid",
        "invoice.payment_succeeded",
        "customer.subscription.updated",
    ]
    invoice = client.v1.invoices.retrieve(renewed["latest_invoice"])
    assert invoice.billing_reason == "subscription_cycle" and invoice.status == "paid"
    updated = receiver.events()[-1]
    assert "items" in updated.data.previous_attributes

    receiver.received.clear()
    failed = httpx.post(f"{fake.base_url}/_fake/subscriptions/{sub_id}/fail").json()
    assert failed["status"] == "past_due"
    assert receiver.types() == [
        "invoice.created",
        "invoice.finalized",
        "invoice.payment_failed",
        "customer.subscription.updated",
    ]
    open_invoice = receiver.events()[2].data.object
    assert open_invoice.status == "open" and open_invoice.amount_remaining == 2900
    assert receiver.events()[3].data.previous_attributes.status == "active"

    receiver.received.clear()
    assert fake.renew(sub_id)["status"] == "active"
    assert client.v1.invoices.retrieve(open_invoice.id).status == "paid"

    receiver.received.clear()
    sub = client.v1.subscriptions.update(
        sub_id, params={"cancel_at_period_end": True, "metadata": {"why": "test"}}
    )
    assert sub.cancel_at_period_end and sub.cancel_at == sub["items"].data[0].current_period_end
    assert receiver.types() == ["customer.subscription.updated"]
    previous = receiver.events()[0].data.previous_attributes
    assert previous.cancel_at_period_end is False

    receiver.received.clear()
    canceled = client.v1.subscriptions.cancel(sub_id)
    assert canceled.status == "canceled" and canceled.ended_at is not None
    assert receiver.types() == ["customer.subscription.deleted"]
    assert client.v1.subscriptions.list(params={"customer": customer.id}).data == []
    every = client.v1.subscriptions.list(params={"customer": customer.id, "status": "all"})
    assert [s.id for s in every.data] == [sub_id]
    with pytest.raises(stripe.InvalidRequestError):
        client.v1.subscriptions.update(sub_id, params={"cancel_at_period_end": False})


def test_renew_at_period_end_ends_a_canceling_subscription(
    client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver
) -> None:
    _, session = subscribe(client, fake)
    client.v1.subscriptions.update(session.subscription, params={"cancel_at_period_end": True})
    receiver.received.clear()
    assert fake.renew(session.subscription)["status"] == "canceled"
    assert receiver.types() == ["customer.subscription.deleted"]


def test_billing_portal(client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver) -> None:
    customer, session = subscribe(client, fake)
    portal = client.v1.billing_portal.sessions.create(
        params={"customer": customer.id, "return_url": "https://shop.test/account"}
    )
    assert portal.id.startswith("bps_") and portal.object == "billing_portal.session"
    assert portal.url == f"{fake.base_url}/portal/{portal.id}"
    assert portal.customer == customer.id and portal.livemode is False
    assert portal.flow is None and portal.locale is None and portal.configuration.startswith("bpc_")
    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.billing_portal.sessions.create(params={"customer": "cus_nobody"})
    assert err.value.code == "resource_missing"
    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.billing_portal.sessions.create(params={})  # type: ignore[typeddict-item]
    assert err.value.code == "parameter_missing"

    page = httpx.get(portal.url)
    assert "Cancel subscription" in page.text and 'href="https://shop.test/account"' in page.text
    receiver.received.clear()
    action = f"{fake.base_url}/portal/{portal.id}/subscriptions/{session.subscription}/cancel"
    answer = httpx.post(action, follow_redirects=True)
    assert "Cancels on" in answer.text and "Renew subscription" in answer.text
    assert receiver.types() == ["customer.subscription.updated"]
    event = receiver.events()[0]
    assert event.data.object.cancel_at_period_end is True
    assert event.data.previous_attributes.cancel_at_period_end is False


def test_control_endpoints(fake: FakeStripe, receiver: Receiver) -> None:
    base = fake.base_url
    answer = httpx.post(f"{base}/_fake/webhook", json={"url": receiver.url, "secret": "whsec_2"})
    assert answer.json()["webhook"]["secret"] == "whsec_2"
    assert httpx.get(f"{base}/_fake/delivery").json()["order"] == "normal"
    assert httpx.post(f"{base}/_fake/delivery", json={"order": "sideways"}).status_code == 400
    httpx.post(f"{base}/v1/customers", auth=(fake.api_key, ""))
    assert fake.get(next(iter(fake.objects)))["object"] == "customer"
    assert httpx.post(f"{base}/_fake/reset").json() == {"reset": True}
    assert fake.objects == {} and fake.webhook is None
    assert httpx.post(f"{base}/_fake/checkout/cs_test_nope/pay", json={}).status_code == 404
    assert httpx.get(f"{base}/pay/cs_test_nope").status_code == 404


def test_cli_arguments_configure_the_webhook() -> None:
    fake = FakeStripe(webhook_url="http://127.0.0.1:1/h", webhook_secret="whsec_demo")
    assert fake.webhook is not None and fake.webhook.secret == "whsec_demo"
    fake.configure_webhook("http://127.0.0.1:2/h", "whsec_other")
    fake.reset()
    assert fake.webhook.url == "http://127.0.0.1:1/h"
    with pytest.raises(ValueError):
        fake.set_delivery(order="sideways")
    payload = json.dumps({"id": "evt_1", "object": "event"})
    header = stripe.WebhookSignature.generate_signature_header(payload, "whsec_demo")
    assert stripe.WebhookSignature.verify_header(payload, header, "whsec_demo")
