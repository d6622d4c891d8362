"""The order step's terms: who buys (consumer or business), a consumer's early-start consent
stored with the checkout session and the order, the per-field checks of a visitor's account
fields, and the order confirmation e-mail sent once after the webhook confirms the payment."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core import mail
from agency.core.text import valid_email
from agency.core.web import job_runner, settings_of
from agency.modules.auth.models import User
from agency.modules.billing import api as billing_api
from agency.modules.billing.models import CheckoutSession, Customer, Order
from agency.modules.billing.schemas import CheckoutIn
from agency.modules.billing.service import checkout as checkout_service
from agency.modules.billing.service import confirmation, order_terms, payments_notice
from agency.modules.billing.settings import BillingSettings
from agency.modules.legal import api as legal_api
from agency.modules.tax import api as tax_api
from tests.billing.conftest import VISITOR, WEBHOOK_SECRET, checkout, deliver, started_shop
from tests.billing.test_purchase import session_id
from tests.fakes.smtp import SmtpServer
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import call, sign_up

CONSENT = {
    "buyer_type": "consumer",
    "early_start_consent": True,
    "consent_version": order_terms.EARLY_START_CONSENT_VERSION,
}


@pytest.fixture
async def mailing_shop(
    tmp_path: Path, database_url: str, fake: FakeStripe, smtp: SmtpServer
) -> AsyncIterator[Any]:
    """The shop of tests/billing/conftest.py, sending its mail to the test SMTP server."""
    async with started_shop(
        tmp_path,
        database_url,
        fake,
        stripe_webhook_secret=WEBHOOK_SECRET,
        base_url="http://shop.test",
        smtp_host="127.0.0.1",
        smtp_port=smtp.port,
        smtp_security="none",
    ) as test_app:
        yield test_app


async def _pay(fake: FakeStripe, client: Any, plan: str, **body: Any) -> str:
    """Check out and pay at the fake; the events are delivered to our webhook. Returns the
    checkout session's id."""
    status, data = await checkout(client, plan, **body)
    assert status == 200, data
    cs = session_id(data["url"])
    before = len(fake.events())
    # A business gives its VAT ID on Stripe's page (checkout requires one where it applies).
    business = body.get("buyer_type") == "business"
    await fake.pay_async(cs, **({"tax_id": "DE136695976"} if business else {}))
    for event in fake.events()[before:]:
        assert (await deliver(client, event)).status_code == 200
    return cs


async def test_a_consumers_consent_is_stored_with_the_session_and_the_order(
    shop: Any, fake: FakeStripe
) -> None:
    client = shop.test_client()
    status, data = await checkout(client, "pro-ai", **VISITOR, **CONSENT)
    assert status == 200, data
    cs = session_id(data["url"])
    session = await CheckoutSession.get(id=cs)
    assert session.buyer_type == "consumer"
    assert session.early_start_consent_version == order_terms.EARLY_START_CONSENT_VERSION
    assert session.early_start_consent_at is not None
    assert session.terms_version == order_terms.TERMS_VERSION
    await fake.pay_async(cs)
    for event in fake.events():
        await deliver(client, event)
    order = await Order.get(checkout_session_id=cs)
    assert (order.buyer_type, order.early_start_consent_version, order.terms_version) == (
        "consumer",
        order_terms.EARLY_START_CONSENT_VERSION,
        order_terms.TERMS_VERSION,
    )
    assert order.early_start_consent_at == session.early_start_consent_at
    _, state = await call(client, "get", f"/api/billing/checkout/{cs}")
    assert state["order_number"] == billing_api.order_number(order.id)
    assert (state["buyer_type"], state["early_start_consent"], state["work_starts_on"]) == (
        "consumer",
        True,
        None,
    )
    # Remembered for the signed-in buyer, and readable by other modules.
    assert await call(client, "get", "/api/billing/buyer") == (200, {"buyer_type": "consumer"})
    assert await billing_api.buyer_type(order.user_id) == "consumer"


async def test_a_consumer_may_order_without_consent_and_work_waits(
    shop: Any, fake: FakeStripe
) -> None:
    client = shop.test_client()
    await sign_up(client)
    cs = await _pay(fake, client, "pro-ai", buyer_type="consumer", early_start_consent=False)
    order = await Order.get(checkout_session_id=cs)
    assert (order.buyer_type, order.early_start_consent_version) == ("consumer", None)
    assert order.early_start_consent_at is None
    _, state = await call(client, "get", f"/api/billing/checkout/{cs}")
    assert state["early_start_consent"] is False
    starts = state["work_starts_on"]
    assert starts is not None and starts.startswith(
        (order.order_date + timedelta(days=14)).date().isoformat()
    )


async def test_a_business_starts_at_once_and_keeps_no_consent(shop: Any, fake: FakeStripe) -> None:
    client = shop.test_client()
    await sign_up(client)
    # A consent flag sent along for a business means nothing: none is recorded.
    cs = await _pay(fake, client, "pro-ai", **{**CONSENT, "buyer_type": "business"})
    order = await Order.get(checkout_session_id=cs)
    assert (order.buyer_type, order.early_start_consent_at) == ("business", None)
    _, state = await call(client, "get", f"/api/billing/checkout/{cs}")
    assert (state["buyer_type"], state["work_starts_on"]) == ("business", None)
    assert (await Customer.get(user_id=order.user_id)).buyer_type == "business"
    assert await call(client, "get", "/api/billing/buyer") == (200, {"buyer_type": "business"})


async def test_the_buyer_type_is_null_before_any_checkout(shop: Any) -> None:
    client = shop.test_client()
    await sign_up(client)
    assert await call(client, "get", "/api/billing/buyer") == (200, {"buyer_type": None})


async def test_a_consent_to_an_older_text_is_refused(shop: Any) -> None:
    client = shop.test_client()
    status, data = await checkout(
        client, "pro-ai", **VISITOR, **{**CONSENT, "consent_version": "early-start-1999"}
    )
    assert status == 400
    assert data["error"]["code"] == "consent_outdated"
    assert set(data["error"]["fields"]) == {"early_start_consent"}
    assert await User.all().count() == 0


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"email": "max@mustermann"}, {"email": "Please enter a valid email address"}),
        ({"password": "12345"}, {"password": "Password must be at least 6 characters"}),
        (
            {"full_name": "", "email": ""},
            {
                "full_name": "Please enter your full name",
                "email": "Please enter your email address",
            },
        ),
        (
            {"email": "ada@", "domain": "not a domain"},
            {
                "email": "Please enter a valid email address",
                "domain": "Please enter a valid domain (e.g., example.com)",
            },
        ),
    ],
)
async def test_each_account_field_gets_its_own_message_and_no_account_is_made(
    shop: Any, fields: dict[str, str], expected: dict[str, str]
) -> None:
    client = shop.test_client()
    status, data = await checkout(client, "professional", **{**VISITOR, **fields})
    assert status == 400
    assert data["error"]["fields"] == expected
    if len(expected) == 1:
        assert data["error"]["message"] == next(iter(expected.values()))
    assert await User.all().count() == 0


LINES = st.text(
    alphabet=st.characters(whitelist_categories=("L", "N", "P", "S", "Zs")), max_size=40
) | st.sampled_from(["", " ", "ada@example.com", "max@mustermann", "a@b.co", "x" * 129])


@given(full_name=LINES.filter(lambda s: len(s) <= 100), email=LINES, password=LINES, domain=LINES)
def test_field_problems_follow_the_servers_rules(
    full_name: str, email: str, password: str, domain: str
) -> None:
    data = CheckoutIn(
        plan="professional", full_name=full_name, email=email, password=password, domain=domain
    )
    problems = checkout_service.field_problems(data)
    assert ("full_name" in problems) == (not full_name.strip())
    assert ("email" in problems) == (not valid_email(email.strip().lower()))
    assert ("password" in problems) == (not 6 <= len(password) <= 128)
    assert set(problems) <= {"full_name", "email", "password", "domain"}
    assert all(problems.values())


@given(st.text(max_size=200), st.booleans())
def test_the_payments_notice_filter(text: str, configured: bool) -> None:
    notice = '<p class="purchase-note" data-payments-notice="">Payments are not set up yet.</p>'
    page = f'<meta name="agency-payments" content="{payments_notice.TOKEN}">{text}{notice}'
    filled = payments_notice.html_filter(configured)("start/index.html", page)
    assert payments_notice.TOKEN not in filled.replace(text, "")
    assert ('content="on"' in filled) == configured
    assert (notice in filled) == (not configured)


async def test_the_order_confirmation_is_sent_once_after_payment(
    mailing_shop: Any, fake: FakeStripe, smtp: SmtpServer
) -> None:
    client = mailing_shop.test_client()
    status, data = await checkout(client, "pro-ai", **VISITOR, **CONSENT)
    assert status == 200
    cs = session_id(data["url"])
    await fake.pay_async(cs)
    events = fake.events()
    await job_runner(mailing_shop.app).drain()
    assert smtp.inbox.messages == []  # nothing before the webhook confirms the payment
    for event in events:
        await deliver(client, event)
    for event in events:  # Stripe delivers again
        assert (await (await deliver(client, event)).get_json())["outcome"] == "duplicate"
    await job_runner(mailing_shop.app).drain()
    order = await Order.get(checkout_session_id=cs)
    sent = [m for m in smtp.inbox.messages if "Your order" in str(m["Subject"])]
    assert len(sent) == 1
    message = sent[0]
    assert message["To"] == "ada@example.com"
    number = billing_api.order_number(order.id)
    assert str(message["Subject"]) == f"Your order {number}: Pro AI"
    text = smtp.inbox.text_of(message)
    assert "Package: Pro AI" in text
    # Without Stripe Tax, the VAT within the gross price at the German rate checkout chose.
    assert "Price: €999.00 one-time, incl. €159.50 VAT (19%)" in text
    assert "Delivery: in 7 days" in text and "Guarantee: 30-day money-back guarantee" in text
    assert f"Terms: version {order_terms.TERMS_VERSION}" in text
    assert order_terms.EARLY_START_CONSENT_TEXT in text
    assert "RIGHT OF WITHDRAWAL" in text and "MODEL WITHDRAWAL FORM" in text
    # The withdrawal information names the seller of the configuration.
    seller = legal_api.placeholders(settings_of(BillingSettings, mailing_shop.app))
    assert f"inform us ({seller['seller_name']}" in text
    assert "http://shop.test/withdraw" in text
    assert re.search(r"you asked us on \d+ \w+ \d{4}, \d\d:\d\d UTC", text)
    assert (await Order.get(id=order.id)).confirmation_mail_id is not None
    # A job that runs again (a retry) sends nothing more.
    tax = settings_of(tax_api.TaxSettings, mailing_shop.app)
    assert await confirmation.send(order.id, "http://shop.test", tax) is None
    assert await mail.OutboundMail.filter(subject__startswith="Your order").count() == 1


async def test_a_subscription_confirmation_says_per_month_and_a_business_gets_no_withdrawal(
    mailing_shop: Any, fake: FakeStripe, smtp: SmtpServer
) -> None:
    client = mailing_shop.test_client()
    await sign_up(client)
    await _pay(fake, client, "professional", buyer_type="business")
    await job_runner(mailing_shop.app).drain()
    [message] = [m for m in smtp.inbox.messages if "Your order" in str(m["Subject"])]
    text = smtp.inbox.text_of(message)
    assert "Price: €29.00 per month" in text
    assert "RIGHT OF WITHDRAWAL" not in text
    assert "We start work immediately." in text


async def test_a_consumer_without_consent_is_told_when_work_starts(
    mailing_shop: Any, fake: FakeStripe, smtp: SmtpServer
) -> None:
    client = mailing_shop.test_client()
    await sign_up(client)
    await _pay(fake, client, "pro-ai")
    await job_runner(mailing_shop.app).drain()
    [message] = [m for m in smtp.inbox.messages if "Your order" in str(m["Subject"])]
    text = smtp.inbox.text_of(message)
    assert "you did not ask us to start before the withdrawal period ends" in text
    assert "RIGHT OF WITHDRAWAL" in text


def test_the_web_ui_shows_the_consent_text_of_the_servers_version() -> None:
    source = Path(__file__).parents[2] / "webui/src/features/billing/order-terms.ts"
    text = source.read_text()
    assert f"'{order_terms.EARLY_START_CONSENT_VERSION}'" in text
    assert f"'{order_terms.EARLY_START_CONSENT_TEXT}'" in text


async def test_checkout_sends_the_buyer_type_to_stripe_metadata(
    shop: Any, fake: FakeStripe
) -> None:
    client = shop.test_client()
    await sign_up(client)
    status, data = await checkout(client, "pro-ai", **CONSENT)
    assert status == 200
    session = fake.objects[session_id(data["url"])]
    assert session["metadata"]["buyer_type"] == "consumer"
    assert session["metadata"]["early_start_consent"] == order_terms.EARLY_START_CONSENT_VERSION


@pytest.mark.parametrize(
    ("fields", "settings", "expected"),
    [
        ({"vat_kind": "reverse_charge", "vat_rate": 0}, {}, "no VAT: reverse charge"),
        ({"vat_kind": "standard", "vat_rate": 1900}, {"vat_mode": "small_business"}, "§ 19 UStG"),
        ({"vat_kind": "outside_eu", "vat_rate": 0}, {}, "no VAT (a sale outside the EU)"),
        ({"vat_kind": "standard", "vat_rate": 2000, "amount_tax": 1667}, {}, "incl. €16.67 VAT"),
        ({"vat_kind": "standard", "vat_rate": 1900}, {}, "incl. €1.60 VAT (19%)"),
        ({"vat_kind": "standard", "vat_rate": 1900}, {"prices_include_vat": False}, "excl. VAT"),
        ({}, {}, "incl. VAT"),
    ],
)
def test_the_confirmations_vat_line_follows_the_checkouts_treatment(
    fields: dict[str, Any], settings: dict[str, Any], expected: str
) -> None:
    order = Order(amount=1000, currency="EUR", **fields)
    tax = tax_api.TaxSettings(**settings)
    assert expected in confirmation.vat_line(order, tax)
