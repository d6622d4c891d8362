"""The header injections a security probe sent, and the one check of a delivered message:
exactly the headers the mailer writes, no Bcc anywhere and a Reply-To only where the sender
asked for one, the literal subject and the template's bodies.

Each injection is an RFC 2047 encoded word (or two) that decodes to a line break: Pythons
without the fix for CVE-2024-6923 (3.11.7 here) wrote the decoded break out, adding a header
or, with a blank line, replacing the body."""

from __future__ import annotations

import base64
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from agency.core import mail
from agency.core.text import is_line
from agency.core.web import job_runner
from agency.settings import Settings
from tests.conftest import make_settings
from tests.fakes.smtp import SmtpServer

INJECTIONS = {
    "q-crlf-reply-to": "=?utf-8?q?x=0D=0AReply-To:_attacker@evil.test?=",
    "q-blank-line-body": "=?utf-8?q?x=0D=0A=0D=0AYour_account_is_closed.?=",
    "b-crlf-bcc": "=?utf-8?b?" + base64.b64encode(b"x\r\nBcc: attacker@evil.test").decode() + "?=",
    "q-lone-lf": "=?utf-8?q?x=0ABcc:_attacker@evil.test?=",
    "q-lone-cr": "=?utf-8?q?x=0DReply-To:_attacker@evil.test?=",
    "split-latin1": "=?iso-8859-1?q?x=0D?= =?iso-8859-1?q?=0AReply-To:_attacker@evil.test?=",
}

# The headers of every message the mailer writes (all templates have a text and an HTML body).
TOP_HEADERS = ["content-type", "from", "message-id", "mime-version", "subject", "to"]
PART_HEADERS = {"content-type", "content-transfer-encoding", "mime-version"}


def body_of(part: EmailMessage) -> str:
    return str(part.get_content()).replace("\r\n", "\n")


def assert_exactly(
    message: EmailMessage,
    *,
    to: str,
    subject: str,
    text: str,
    html: str | None,
    reply_to: str | None = None,
) -> None:
    """`message` (as the SMTP server received it) carries exactly the mailer's headers with
    these values and these bodies, and nothing an injection would have added (a Reply-To only
    when the sender asked for this one, `reply_to`)."""
    expected = sorted([*TOP_HEADERS, "reply-to"]) if reply_to else TOP_HEADERS
    assert sorted(name.lower() for name in message) == expected
    assert str(message["To"]) == to
    if reply_to:
        assert [str(value) for value in message.get_all("Reply-To", [])] == [reply_to]
    assert str(message["Subject"]) == subject
    assert is_line(str(message["Subject"]), 1000)
    assert message.get_content_type() == "multipart/alternative"
    parts = list(message.iter_parts())
    assert [part.get_content_type() for part in parts] == ["text/plain", "text/html"]
    for part in parts:
        assert {name.lower() for name in part} <= PART_HEADERS
    assert body_of(parts[0]) == text  # type: ignore[arg-type]
    assert body_of(parts[1]) == html  # type: ignore[arg-type]
    for part in message.walk():
        allowed = {"reply-to"} if reply_to and part is message else set()
        assert not {name.lower() for name in part} & ({"reply-to", "bcc", "cc"} - allowed)
        for name, value in part.items():
            assert is_line(str(value), 10_000), (name, value)


def mailing_settings(
    tmp_path: Path, database_url: str, smtp: SmtpServer, **settings: Any
) -> Settings:
    """The settings of an app sending its mail to `smtp`, with these settings besides (a test
    module's `app_settings`, for the `app` of tests/conftest.py)."""
    return make_settings(
        tmp_path,
        database_url,
        smtp_host="127.0.0.1",
        smtp_port=smtp.port,
        smtp_security="none",
        **settings,
    )


async def delivered(app: Any) -> list[mail.OutboundMail]:
    """Every message the app queued, once its jobs have run; each must have been sent."""
    await job_runner(app.app).drain()
    rows = list(await mail.OutboundMail.all().order_by("id"))
    assert [(row.status, row.last_error) for row in rows] == [(mail.SENT, None)] * len(rows)
    return rows
