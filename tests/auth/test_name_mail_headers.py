"""Header injection and sign-up names: a name reaches no e-mail header. Signed up with the probe's
encoded words as first and last name, the account's reset e-mail arrives with exactly the
mailer's headers and the name, literally, in its body; and no subject template reads a name at
all (`tests/core/test_mail_headers.py` holds every subject's values)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from agency.core import mail
from tests.auth.helpers import call, sign_up
from tests.core.mail_headers import INJECTIONS, assert_exactly, mailing_app
from tests.fakes.smtp import SmtpServer


@pytest.fixture
async def site(tmp_path: Path, database_url: str, smtp: SmtpServer) -> AsyncIterator[Any]:
    async with mailing_app(tmp_path, database_url, smtp) as test_app:
        yield test_app


@pytest.mark.parametrize("injection", INJECTIONS.values(), ids=INJECTIONS.keys())
async def test_a_name_goes_to_the_body_only(site: Any, smtp: SmtpServer, injection: str) -> None:
    client = site.test_client()
    status, data = await sign_up(client, first_name=injection, last_name=injection)
    assert status == 201, data
    await call(client, "post", "/api/auth/forgot-password", {"email": "ada@example.com"})
    await site.app.extensions["agency.jobs"].drain()
    [reset] = await mail.OutboundMail.all()
    assert (reset.status, reset.last_error) == (mail.SENT, None)
    assert reset.text.startswith(f"Hi {injection},\n")
    [message] = smtp.inbox.messages
    assert_exactly(
        message,
        to="ada@example.com",
        subject="Reset your agency password",
        text=reset.text,
        html=reset.html,
    )
