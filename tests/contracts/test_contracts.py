"""Withdraw from contract and Cancel contracts here without an account: identification by the
order's e-mail and its order number or domain, a neutral refusal, the rate limit, the receipts
(over SMTP), the subscription set to end at the fake Stripe, and the admins' list."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core import mail
from agency.core.web import job_runner
from agency.modules.billing.models import Order, Subscription
from agency.modules.contracts.models import Cancellation, Withdrawal
from agency.modules.contracts.service import Reference, deadline_of, parse_reference
from agency.modules.notifications.models import Notification
from tests.billing.conftest import WEBHOOK_SECRET, deliver, started_shop
from tests.billing.test_purchase import buy
from tests.fakes.smtp import SmtpServer
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import call, sign_up

EMAIL = "ada@example.com"
AGENCY = "team@agency.test"


@pytest.fixture
async def shop(
    tmp_path: Path, database_url: str, fake: FakeStripe, smtp: SmtpServer
) -> AsyncIterator[Any]:
    """The billing tests' shop, sending its mail to the test SMTP server."""
    async with started_shop(
        tmp_path,
        database_url,
        fake,
        stripe_webhook_secret=WEBHOOK_SECRET,
        base_url="http://shop.test",
        smtp_host="127.0.0.1",
        smtp_port=smtp.port,
        smtp_security="none",
        agency_email=AGENCY,
    ) as test_app:
        yield test_app


async def bought(shop: Any, fake: FakeStripe, plan: str, domain: str = "") -> Any:
    """A signed-up customer who bought `plan`; returns a signed-out client (a stranger's)."""
    client = shop.test_client()
    await sign_up(client)
    body = {"domain": domain} if domain else {}
    for event in await buy(fake, client, plan, **body):
        await deliver(client, event)
    await job_runner(shop.app).drain()  # the order's own e-mails are out before a test counts
    return shop.test_client()


async def sent(shop: Any, smtp: SmtpServer) -> list[Any]:
    await job_runner(shop.app).drain()
    rows = await mail.OutboundMail.all().order_by("id")
    assert all(row.status == mail.SENT for row in rows), [(r.status, r.last_error) for r in rows]
    return list(smtp.inbox.messages)


def text_of(message: Any) -> str:
    return str(message.get_body(preferencelist=("plain",)).get_content())


async def test_a_consumer_withdraws_with_e_mail_and_order_number(
    shop: Any, fake: FakeStripe, smtp: SmtpServer
) -> None:
    stranger = await bought(shop, fake, "starter")
    order = await Order.get()
    number = f"AG-{order.id:06d}"
    before = len(smtp.inbox.messages)
    status, preview = await call(
        stranger,
        "post",
        "/api/contracts/withdrawal/check",
        {"email": "ADA@example.com ", "reference": number.lower()},
    )
    assert status == 200, preview
    deadline = (order.order_date.astimezone(UTC).date() + timedelta(days=14)).isoformat()
    assert preview["order_number"] == number and preview["deadline"] == deadline
    assert await Withdrawal.all().count() == 0
    status, receipt = await call(
        stranger, "post", "/api/contracts/withdrawal", {"email": EMAIL, "reference": number}
    )
    assert status == 201, receipt
    assert receipt["deadline"] == deadline and receipt["received_at"]
    messages = (await sent(shop, smtp))[before:]
    by_to = {m["To"]: m for m in messages}
    assert set(by_to) == {EMAIL, AGENCY}
    customer = by_to[EMAIL]
    assert customer["Subject"] == f"We have received your withdrawal from order {number}"
    body = text_of(customer)
    assert "Withdrawal received:" in body and "UTC" in body
    assert "We have received your withdrawal" in by_to[EMAIL]["Subject"]
    assert number in by_to[AGENCY]["Subject"]
    # A second withdrawal from the same order is refused with its reason.
    status, data = await call(
        stranger, "post", "/api/contracts/withdrawal", {"email": EMAIL, "reference": number}
    )
    assert status == 400 and "You withdrew from order" in data["error"]["message"]


async def test_the_withdrawal_period_and_the_business_buyer(shop: Any, fake: FakeStripe) -> None:
    stranger = await bought(shop, fake, "starter")
    order = await Order.get()
    body = {"email": EMAIL, "reference": str(order.id)}
    ordered = datetime.now(UTC) - timedelta(days=15)
    await Order.filter(id=order.id).update(order_date=ordered)
    status, data = await call(stranger, "post", "/api/contracts/withdrawal/check", body)
    last = ordered.date() + timedelta(days=14)
    assert status == 400 and data["error"]["message"] == (
        f"The withdrawal period of order AG-{order.id:06d} ended on {last.day} {last:%B %Y}."
    )
    await Order.filter(id=order.id).update(order_date=datetime.now(UTC) - timedelta(days=14))
    status, data = await call(stranger, "post", "/api/contracts/withdrawal/check", body)
    assert status == 200, data  # the 14th day after the order still counts
    if "buyer_type" in Order._meta.fields_map:
        await Order.filter(id=order.id).update(buyer_type="business")
        status, data = await call(stranger, "post", "/api/contracts/withdrawal/check", body)
        assert status == 400 and "for consumers only" in data["error"]["message"]


async def test_a_stranger_gets_one_neutral_answer(shop: Any, fake: FakeStripe) -> None:
    stranger = await bought(shop, fake, "starter", domain="ada-lovelace.example")
    order = await Order.get()
    neutral = None
    for path in ("/api/contracts/withdrawal/check", "/api/contracts/cancellation"):
        for body in (
            {"email": "eve@example.com", "reference": f"AG-{order.id:06d}"},
            {"email": EMAIL, "reference": f"AG-{order.id + 1:06d}"},
            {"email": EMAIL, "reference": "other-domain.example"},
        ):
            status, data = await call(stranger, "post", path, body)
            assert status == 404, data
            neutral = neutral or data["error"]["message"]
            assert data["error"]["message"] == neutral
    assert await Withdrawal.all().count() == 0 and await Cancellation.all().count() == 0


async def test_bad_input_is_named_field_by_field(shop: Any) -> None:
    client = shop.test_client()
    status, data = await call(
        client,
        "post",
        "/api/contracts/withdrawal/check",
        {"email": "max@mustermann", "reference": "?!"},
    )
    assert status == 400
    assert set(data["error"]["fields"]) == {"email", "reference"}
    status, data = await call(client, "post", "/api/contracts/cancellation/check", {})
    assert status == 400
    assert set(data["error"]["fields"]) == {"email", "reference"}


async def test_cancelling_by_domain_ends_the_subscription_at_the_period_end(
    shop: Any, fake: FakeStripe, smtp: SmtpServer
) -> None:
    stranger = await bought(shop, fake, "starter", domain="ada-lovelace.example")
    subscription = await Subscription.get()
    end = datetime.fromtimestamp(subscription.current_period_end or 0, UTC)
    before_mail = len(smtp.inbox.messages)
    body = {"email": EMAIL, "reference": "https://www.Ada-Lovelace.example/"}
    status, preview = await call(stranger, "post", "/api/contracts/cancellation/check", body)
    assert status == 200, preview
    assert preview["ends_on"] == end.date().isoformat() and preview["plan_name"]
    assert fake.get(subscription.id)["cancel_at_period_end"] is False
    before_events = len(fake.events())
    status, receipt = await call(stranger, "post", "/api/contracts/cancellation", body)
    assert status == 201, receipt
    at_stripe = fake.get(subscription.id)
    assert at_stripe["cancel_at_period_end"] is True and at_stripe["status"] == "active"
    assert (await Subscription.get()).cancel_at_period_end is True
    # Stripe's webhook that follows adds no second confirmation.
    for event in fake.events()[before_events:]:
        await deliver(stranger, event)
    messages = (await sent(shop, smtp))[before_mail:]
    assert [m["To"] for m in messages] == [EMAIL]
    day = f"{end.day} {end:%B %Y}"
    assert messages[0]["Subject"] == f"Your cancellation is confirmed: Starter ends on {day}" or (
        day in messages[0]["Subject"]
    )
    assert "Received:" in text_of(messages[0]) and "UTC" in text_of(messages[0])
    assert await Notification.filter(kind="subscription_cancelled").count() == 1
    status, data = await call(stranger, "post", "/api/contracts/cancellation/check", body)
    assert status == 400 and "already cancelled" in data["error"]["message"]


async def test_an_extraordinary_cancellation_is_a_request_with_its_reason(
    shop: Any, fake: FakeStripe, smtp: SmtpServer
) -> None:
    stranger = await bought(shop, fake, "starter")
    subscription = await Subscription.get()
    before_mail = len(smtp.inbox.messages)
    body = {"email": EMAIL, "reference": "AG-000001", "kind": "extraordinary"}
    status, data = await call(stranger, "post", "/api/contracts/cancellation", body)
    assert status == 400 and data["error"]["fields"] == {
        "reason": "Please give the reason for the extraordinary cancellation"
    }
    body["reason"] = "The site was never delivered."
    status, receipt = await call(stranger, "post", "/api/contracts/cancellation", body)
    assert status == 201, receipt
    assert receipt["kind"] == "extraordinary" and receipt["ends_on"] is None
    assert "will answer you shortly" in receipt["message"]
    # Nothing changes at Stripe: the agency decides.
    assert fake.get(subscription.id)["cancel_at_period_end"] is False
    row = await Cancellation.get()
    assert (row.kind, row.reason, row.status) == (
        "extraordinary",
        "The site was never delivered.",
        "received",
    )
    messages = (await sent(shop, smtp))[before_mail:]
    by_to = {m["To"]: m for m in messages}
    assert set(by_to) == {EMAIL, AGENCY}
    assert "extraordinary cancellation" in by_to[EMAIL]["Subject"]
    assert "The site was never delivered." in text_of(by_to[EMAIL])
    assert "UTC" in text_of(by_to[EMAIL])


async def test_a_cancellation_in_the_portal_is_confirmed_too(
    shop: Any, fake: FakeStripe, smtp: SmtpServer
) -> None:
    stranger = await bought(shop, fake, "starter")
    subscription = await Subscription.get()
    before_mail = len(smtp.inbox.messages)
    before = len(fake.events())
    fake._update_subscription(  # what the customer portal does at Stripe
        subscription.id, lambda sub: fake._set_cancel_at_period_end(sub, True, fake.now())
    )
    events = fake.events()[before:]
    assert [e["type"] for e in events] == ["customer.subscription.updated"]
    for event in events + events:  # delivered twice: still one confirmation
        await deliver(stranger, event)
    messages = (await sent(shop, smtp))[before_mail:]
    assert [m["To"] for m in messages] == [EMAIL]
    assert "Your cancellation is confirmed" in messages[0]["Subject"]
    assert await Notification.filter(kind="subscription_cancelled").count() == 1


async def test_the_calls_are_rate_limited(shop: Any) -> None:
    client = shop.test_client()
    body = {"email": EMAIL, "reference": "AG-000001"}
    statuses = [
        (await call(client, "post", "/api/contracts/cancellation/check", body))[0]
        for _ in range(21)
    ]
    assert statuses == [404] * 20 + [429]


async def test_admins_list_withdrawals_and_cancellations(shop: Any, fake: FakeStripe) -> None:
    stranger = await bought(shop, fake, "starter", domain="ada-lovelace.example")
    order = await Order.get()
    body = {"email": EMAIL, "reference": "ada-lovelace.example"}
    assert (await call(stranger, "post", "/api/contracts/withdrawal", body))[0] == 201
    assert (await call(stranger, "post", "/api/contracts/cancellation", body))[0] == 201
    assert (await call(stranger, "get", "/api/admin/contracts"))[0] == 401
    admin = shop.test_client()
    await sign_up(admin, "admin@example.com")
    assert (await call(admin, "get", "/api/admin/contracts"))[0] == 403
    from agency.modules.auth.service import admin as auth_admin

    await auth_admin.set_role("admin@example.com", "admin")
    status, data = await call(admin, "get", "/api/admin/contracts")
    assert status == 200, data
    [withdrawal] = data["withdrawals"]
    assert withdrawal["order_number"] == f"AG-{order.id:06d}"
    assert withdrawal["deadline"] == deadline_of(order.order_date).isoformat()
    [cancellation] = data["cancellations"]
    assert (cancellation["via"], cancellation["status"], cancellation["email"]) == (
        "cancel_page",
        "active",
        EMAIL,
    )
    path = f"/api/admin/contracts/withdrawals/{withdrawal['id']}/handled"
    assert (await call(stranger, "post", path))[0] == 401
    for _ in range(2):  # again is harmless
        status, marked = await call(admin, "post", path)
        assert status == 200 and marked["status"] == "handled"
    assert (await call(admin, "post", "/api/admin/contracts/withdrawals/99999/handled"))[0] == 404
    assert (await call(admin, "post", f"/api/admin/contracts/withdrawals/{2**40}/handled"))[
        0
    ] == 404
    [listed] = (await call(admin, "get", "/api/admin/contracts"))[1]["withdrawals"]
    assert listed["status"] == "handled"


async def test_deleting_the_account_ends_the_subscription_at_stripe_first(
    shop: Any, fake: FakeStripe
) -> None:
    client = shop.test_client()
    await sign_up(client)
    for event in await buy(fake, client, "starter"):
        await deliver(client, event)
    subscription = await Subscription.get()
    status, _ = await call(
        client, "post", "/api/account/delete", {"current_password": "correct horse"}
    )
    assert status == 204
    assert fake.get(subscription.id)["status"] == "canceled"
    assert (await Subscription.get()).status == "canceled"


async def test_the_account_stays_when_stripe_does_not_confirm(shop: Any, fake: FakeStripe) -> None:
    client = shop.test_client()
    await sign_up(client)
    for event in await buy(fake, client, "starter"):
        await deliver(client, event)
    subscription = await Subscription.get()
    fake._get("subscription", subscription.id)  # known at Stripe
    with fake._lock:
        fake._cancel_now(fake._get("subscription", subscription.id))
    # Stripe refuses to cancel a cancelled subscription: the deletion must not go on.
    await Subscription.filter(id=subscription.id).update(status="active")
    status, data = await call(
        client, "post", "/api/account/delete", {"current_password": "correct horse"}
    )
    assert status == 503 and "has not been deleted" in data["error"]["message"]
    assert (await call(client, "get", "/api/auth/me"))[0] == 200
    assert await Order.filter(user_id__gt=0).count() == 1


@given(st.integers(min_value=1, max_value=2**31 - 1), st.sampled_from(["AG-", "ag ", "", "AG"]))
def test_an_order_number_however_typed_names_the_order(number: int, prefix: str) -> None:
    typed = f"{prefix}{number:06d}" if prefix else str(number)
    assert parse_reference(f"  {typed} ") == Reference("order", number)


@given(
    st.from_regex(r"[a-z][a-z0-9]{1,20}\.(de|com|example)", fullmatch=True),
    st.sampled_from(["", "https://", "http://www.", "HTTPS://WWW."]),
    st.sampled_from(["", "/", "/path?x=1"]),
)
def test_a_domain_however_typed_names_the_website(host: str, scheme: str, path: str) -> None:
    assert parse_reference(f"{scheme}{host.upper() if scheme.isupper() else host}{path}") == (
        Reference("domain", host)
    )


@given(st.text(max_size=60))
def test_anything_else_is_no_reference_and_never_raises(text: str) -> None:
    found = parse_reference(text)
    if found is not None:
        assert (found.kind == "order" and 0 < int(found.value) < 2**31) or (
            found.kind == "domain" and "." in str(found.value)
        )


@given(st.datetimes(timezones=st.just(UTC)))
def test_the_deadline_is_the_fourteenth_day_after_the_order(ordered: datetime) -> None:
    deadline = deadline_of(ordered)
    assert (deadline - ordered.date()).days == 14


async def test_the_withdrawal_page_has_the_e_mails_wording_and_the_seller(client: Any) -> None:
    """/withdrawal is the partial the order confirmation includes: every sentence of the text
    version is on the page, with the seller's details."""
    from agency.modules.contracts.service import _partials

    status, page = await call(client, "get", "/api/pages/withdrawal")
    assert status == 200 and page["title"] == "Withdrawal information"
    html = page["html"]
    assert "<h1>Withdrawal information</h1>" in html and "style=" not in html
    text = _partials.get_template("_withdrawal_information.txt").render({"seller": {}})
    sentences = [
        line.strip().removeprefix("- ")
        for line in text.splitlines()
        if len(line.strip()) > 30 and "inform us" not in line and not line.startswith("- To")
    ]
    assert len(sentences) >= 8
    shown = unescape(html).lower()
    for sentence in sentences:  # the text version writes its headings in capitals
        assert sentence.lower() in shown, sentence
    # The seller named is the configured one, not the template's fallback.
    assert "inform us (" in shown and "the agency operating this website" not in shown
