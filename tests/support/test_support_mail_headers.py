"""Header injection through the support form: a subject holding encoded words that decode to a line
break (the probe's six variants) reaches the agency, and the customer's reply, with its literal
text and exactly the mailer's headers: no Reply-To or Bcc, the template's body. The sender's
name (a visitor's, or an account's from sign-up) goes to the body only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agency.modules.auth.service import admin as auth_admin
from agency.modules.support.models import SupportRequest
from agency.settings import Settings
from tests.core.mail_headers import INJECTIONS, assert_exactly, delivered, mailing_settings
from tests.fakes.smtp import SmtpServer
from tests.helpers.http import call, sign_up

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
    assert_exactly(message, to=AGENCY, subject=subject, text=notice.text, html=notice.html)


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
    assert_exactly(to_agency, to=AGENCY, subject=subject, text=notice.text, html=notice.html)
    assert f"Hello {injection} Lovelace," in reply.text
    assert_exactly(
        to_customer,
        to="ada@example.com",
        subject=f"Re: {injection}",
        text=reply.text,
        html=reply.html,
    )
