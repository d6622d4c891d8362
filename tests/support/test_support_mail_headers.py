"""Header injection through the support form: a subject holding encoded words that decode to a line
break (the probe's six variants) reaches the agency, and the customer's reply, with its literal
text and exactly the mailer's headers: no Bcc, a Reply-To of the customer's address on the
agency's copy only, the template's body. The sender's name (a visitor's, or an account's from
sign-up) goes to the body only; the reply greets by first name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agency.modules.auth.models import Profile
from agency.modules.auth.service import admin as auth_admin
from agency.modules.support.models import SupportRequest
from agency.settings import Settings
from tests.core.mail_headers import INJECTIONS, assert_exactly, delivered, mailing_settings
from tests.fakes.smtp import SmtpServer
from tests.helpers.http import call, sign_up, signed_up

AGENCY = "team@agency.test"
VARIANTS = pytest.mark.parametrize("injection", INJECTIONS.values(), ids=INJECTIONS.keys())


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, smtp: SmtpServer) -> Settings:
    """This module's `app` (tests/conftest.py) sends its mail to `smtp`."""
    return mailing_settings(
        tmp_path, database_url, smtp, agency_email=AGENCY, base_url="http://shop.test"
    )


@VARIANTS
async def test_a_visitors_subject_reaches_the_agency_literally(
    app: Any, smtp: SmtpServer, injection: str
) -> None:
    body = {
        "name": injection,
        "email": "grace@example.com",
        "subject": injection,
        "message": "Do you build shops?",
    }
    assert (await call(app.test_client(), "post", "/api/support", body))[0] == 201
    row = await SupportRequest.get()
    [notice] = await delivered(app)
    subject = f"Support request #{row.id}: {injection} from grace@example.com"
    assert notice.subject == subject
    assert f"{injection} <grace@example.com> sent a support request." in notice.text
    [message] = smtp.inbox.messages
    assert_exactly(
        message,
        to=AGENCY,
        subject=subject,
        text=notice.text,
        html=notice.html,
        reply_to="grace@example.com",
    )


@VARIANTS
async def test_a_customers_subject_and_the_reply_arrive_literally(
    app: Any, smtp: SmtpServer, injection: str
) -> None:
    client = app.test_client()
    # The account's name (from sign-up) is the request's name: it goes to the body only.
    assert (await sign_up(client, first_name=injection, last_name="Lovelace"))[0] == 201
    body = {"subject": injection, "message": "Can you move my domain?"}
    assert (await call(client, "post", "/api/support", body))[0] == 201
    row = await SupportRequest.get()
    await call(client, "post", "/api/auth/logout")
    await sign_up(client, "admin@agency.test")
    await auth_admin.set_role("admin@agency.test", "admin")
    answer = {"body": "Yes, we can."}
    assert (await call(client, "post", f"/api/admin/support/{row.id}/reply", answer))[0] == 200
    notice, reply = await delivered(app)
    # The two notices are separate jobs and may be delivered in either order.
    by_recipient = {str(message["To"]): message for message in smtp.inbox.messages}
    to_agency, to_customer = by_recipient[AGENCY], by_recipient["ada@example.com"]
    subject = f"Support request #{row.id}: {injection} from ada@example.com"
    assert f"{injection} Lovelace <ada@example.com>" in notice.text
    assert_exactly(
        to_agency,
        to=AGENCY,
        subject=subject,
        text=notice.text,
        html=notice.html,
        reply_to="ada@example.com",
    )
    first_name = " ".join(injection.split())
    assert reply.text.startswith(f"Hello {first_name},\n")
    assert "Lovelace" not in reply.text
    assert_exactly(
        to_customer,
        to="ada@example.com",
        subject=f"Re: {injection}",
        text=reply.text,
        html=reply.html,
    )


async def _answer(app: Any, request_id: int, body: str = "Yes, we can.") -> None:
    admin = app.test_client()
    await sign_up(admin, "admin@agency.test")
    await auth_admin.set_role("admin@agency.test", "admin")
    answer = {"body": body}
    assert (await call(admin, "post", f"/api/admin/support/{request_id}/reply", answer))[0] == 200


async def test_the_agency_replies_to_the_visitor_who_is_greeted_by_first_name(
    app: Any, smtp: SmtpServer
) -> None:
    body = {
        "name": "Max  Mustermann",
        "email": "Max@Example.com",
        "subject": "A shop",
        "message": "Do you build shops?",
    }
    assert (await call(app.test_client(), "post", "/api/support", body))[0] == 201
    row = await SupportRequest.get()
    await _answer(app, row.id)
    await delivered(app)
    by_recipient = {str(message["To"]): message for message in smtp.inbox.messages}
    to_agency, to_visitor = by_recipient[AGENCY], by_recipient["max@example.com"]
    # "Reply" in the agency's mail program answers the visitor, not the shop's own sender.
    assert str(to_agency["Reply-To"]) == "max@example.com"
    assert to_visitor["Reply-To"] is None
    text = to_visitor.get_body(("plain",))
    html = to_visitor.get_body(("html",))
    assert text is not None and html is not None
    assert str(text.get_content()).startswith("Hello Max,")
    assert "Hello Max,</p>" in str(html.get_content())
    assert "Mustermann" not in str(text.get_content())


async def test_a_customer_without_a_name_is_greeted_without_one(app: Any, smtp: SmtpServer) -> None:
    client = await signed_up(app, "nameless@example.com")
    # An account a purchase opened without a name (or a name removed later).
    await Profile.filter(id=client.user_id).update(first_name="", last_name="")
    body = {"subject": "My domain", "message": "Can you move my domain?"}
    assert (await call(client, "post", "/api/support", body))[0] == 201
    row = await SupportRequest.get()
    await _answer(app, row.id)
    await delivered(app)
    by_recipient = {str(message["To"]): message for message in smtp.inbox.messages}
    assert str(by_recipient[AGENCY]["Reply-To"]) == "nameless@example.com"
    text = by_recipient["nameless@example.com"].get_body(("plain",))
    assert text is not None
    assert str(text.get_content()).startswith("Hello,\r\n")
