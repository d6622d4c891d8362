"""Header injection and sign-up names: a name reaches no e-mail header. Signed up with the probe's
encoded words as first and last name, the account's reset e-mail arrives with exactly the
mailer's headers and the name, literally, in its body; and no subject template reads a name at
all (`tests/core/test_mail_headers.py` holds every subject's values)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agency.core import mail
from agency.core.web import job_runner
from agency.settings import Settings
from tests.core.mail_headers import INJECTIONS, assert_exactly, mailing_settings
from tests.fakes.smtp import SmtpServer
from tests.helpers.http import call, sign_up


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, smtp: SmtpServer) -> Settings:
    """This module's `app` (tests/conftest.py) sends its mail to `smtp`."""
    return mailing_settings(tmp_path, database_url, smtp)


@pytest.mark.parametrize("injection", INJECTIONS.values(), ids=INJECTIONS.keys())
async def test_a_name_goes_to_the_body_only(app: Any, smtp: SmtpServer, injection: str) -> None:
    client = app.test_client()
    status, data = await sign_up(client, first_name=injection, last_name=injection)
    assert status == 201, data
    await call(client, "post", "/api/auth/forgot-password", {"email": "ada@example.com"})
    await job_runner(app.app).drain()
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
