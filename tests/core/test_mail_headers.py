"""No header value of ours becomes a header of someone else's making once encoded
words are decoded. A subject holding encoded words reaches a real SMTP server with its literal
text and exactly the mailer's headers; a recipient whose decoded form differs is refused; a
message that does not read back as built is failed, never sent (SQLite and PostgreSQL)."""

from __future__ import annotations

import base64
import logging
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jinja2 import Environment, meta

from agency.core import jobs, mail
from agency.core.paths import PACKAGE_DIR
from agency.core.text import is_line
from tests.conftest import make_settings
from tests.core.mail_headers import INJECTIONS, assert_exactly
from tests.fakes.smtp import SmtpServer

TO = "team@agency.test"
TEXT = "The real body.\n"
HTML = "<p>The real body.</p>\n"


def runner_for(tmp_path: Path, url: str, smtp: SmtpServer) -> jobs.JobRunner:
    settings = make_settings(
        tmp_path, url, smtp_host="127.0.0.1", smtp_port=smtp.port, smtp_security="none"
    )
    return jobs.JobRunner({mail.JOB_KIND: mail.Mailer(settings).deliver})


async def queue(to: str, subject: str) -> int:
    row = await mail.OutboundMail.create(to=to, subject=subject, text=TEXT, html=HTML)
    await jobs.enqueue(mail.JOB_KIND, {"mail_id": row.id}, max_attempts=mail.MAX_ATTEMPTS)
    return int(row.id)


@pytest.mark.parametrize("injection", INJECTIONS.values(), ids=INJECTIONS.keys())
@pytest.mark.parametrize("subject", ["{}", "Re: {} from ada@example.com", "{}{}"])
async def test_an_encoded_word_in_a_subject_arrives_as_its_literal_text(
    orm: str, tmp_path: Path, smtp: SmtpServer, injection: str, subject: str
) -> None:
    literal = subject.format(injection, injection)
    mail_id = await queue(TO, literal)
    assert await runner_for(tmp_path, orm, smtp).drain() == 1
    [message] = smtp.inbox.messages
    assert_exactly(message, to=TO, subject=literal, text=TEXT, html=HTML)
    assert (await mail.OutboundMail.get(id=mail_id)).status == mail.SENT


@pytest.mark.parametrize(
    "subject",
    [
        "What does =? mean, and ?= too",
        "=?utf-8?q?caf=C3=A9?=",  # a harmless encoded word is shown as written, not decoded
        "Café =?unknown?x?y?= " + "long words " * 20,
        "Plain subject",
        "Help\u2028Bcc: eve@evil.test",  # a line separator: not a line break in a header
        "Help\u2029and more",
    ],
)
async def test_other_subjects_arrive_unchanged(
    orm: str, tmp_path: Path, smtp: SmtpServer, subject: str
) -> None:
    await queue(TO, subject)
    assert await runner_for(tmp_path, orm, smtp).drain() == 1
    [message] = smtp.inbox.messages
    assert_exactly(message, to=TO, subject=subject, text=TEXT, html=HTML)


def encoded(text: bytes) -> str:
    return base64.b64encode(text).decode()


BAD_NAMES = [
    "=?utf-8?q?Eve=0D=0ABcc=3A_eve=40evil.test?=",
    "=?utf-8?b?" + encoded(b"Eve\r\nBcc: eve@evil.test") + "?=",
    "=?utf-8?q?Eve=0ABcc=3A_eve=40evil.test?=",
    "=?utf-8?q?Eve=0DReply-To=3A_eve=40evil.test?=",
    "=?utf-8?q?Eve=2C_eve=40evil.test?=",  # decodes to a second address
    "=?iso-8859-1?q?Eve=0D?= =?iso-8859-1?q?=0ABcc=3A_eve=40evil.test?=",
]


@pytest.mark.parametrize("name", BAD_NAMES)
async def test_a_recipient_whose_decoded_form_differs_is_refused_at_once(
    orm: str, tmp_path: Path, smtp: SmtpServer, name: str
) -> None:
    mail_id = await queue(f"{name} <ada@example.com>", "Hello")
    assert await runner_for(tmp_path, orm, smtp).drain() == 1
    assert smtp.inbox.messages == []
    job = await jobs.Job.get(kind=mail.JOB_KIND)
    assert (job.status, job.attempts) == (jobs.FAILED, 1)  # never retried
    stored = await mail.OutboundMail.get(id=mail_id)
    assert stored.status == mail.FAILED
    assert stored.last_error is not None and "recipient" in stored.last_error


def naive_subject(message: EmailMessage, subject: str) -> None:
    message["Subject"] = subject  # a subject set without the mailer's checks


async def test_a_message_that_does_not_read_back_as_built_is_failed_not_sent(
    orm: str,
    tmp_path: Path,
    smtp: SmtpServer,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The last line of defence, whatever the Python: with the subject set as before, an
    unfixed Python writes the decoded line break and the read-back check catches it (a fixed
    one refuses to write it); either way nothing reaches the server and the reason is kept."""
    monkeypatch.setattr(mail, "set_subject", naive_subject)
    mail_id = await queue(TO, INJECTIONS["q-crlf-reply-to"])
    with caplog.at_level(logging.WARNING, logger="agency.core.mail"):
        assert await runner_for(tmp_path, orm, smtp).drain() == 1
    assert smtp.inbox.messages == []
    job = await jobs.Job.get(kind=mail.JOB_KIND)
    assert (job.status, job.attempts) == (jobs.FAILED, 1)
    stored = await mail.OutboundMail.get(id=mail_id)
    assert stored.status == mail.FAILED and stored.last_error is not None
    assert stored.last_error.startswith("refused: the ")
    assert "read back" in stored.last_error or "cannot be written" in stored.last_error
    assert any(record.getMessage().startswith("mail ") for record in caplog.records)


async def test_without_smtp_a_message_that_cannot_be_written_fails_too(
    orm: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mail, "set_subject", naive_subject)
    runner = jobs.JobRunner({mail.JOB_KIND: mail.Mailer(make_settings(tmp_path, orm)).deliver})
    mail_id = await queue(TO, INJECTIONS["b-crlf-bcc"])
    assert await runner.drain() == 1
    assert (await mail.OutboundMail.get(id=mail_id)).status == mail.FAILED


def test_the_read_back_check_names_an_added_header() -> None:
    message = EmailMessage(policy=mail.POLICY)
    message["From"] = "agency <hello@agency.local>"
    message["To"] = TO
    message["Subject"] = "Hello"
    message.set_content(TEXT)
    data = message.as_bytes(policy=mail.POLICY)
    assert mail._reads_back(message, data) is None
    added = data.replace(b"Subject: Hello\r\n", b"Subject: Hello\r\nBcc: eve@evil.test\r\n")
    assert "bcc" in (mail._reads_back(message, added) or "")
    body = data.replace(b"The real body.", b"Your account is closed.")
    assert "body" in (mail._reads_back(message, body) or "")
    value = data.replace(b"Subject: Hello", b"Subject: =?utf-8?q?Hello=0D=0A?=")
    assert "subject" in (mail._reads_back(message, value) or "")


# Any text in a subject ------------------------------------------------------------------------

CHARSETS = ["utf-8", "UTF-8", "iso-8859-1", "us-ascii", "utf-16", "x-unknown", "utf-8*en"]


def _word(charset: str, encoding: str, data: bytes) -> str:
    text = "".join(f"={byte:02X}" for byte in data) if encoding in "qQ" else encoded(data)
    return f"=?{charset}?{encoding}?{text}?="


encoded_words = st.builds(
    _word, st.sampled_from(CHARSETS), st.sampled_from("qQbB"), st.binary(max_size=30)
)
line_breaks = st.binary(max_size=4).map(lambda data: data + b"\r\nBcc: eve@evil.test\r\n")
fragments = st.one_of(
    st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=20),
    encoded_words,
    st.builds(_word, st.sampled_from(CHARSETS), st.sampled_from("qb"), line_breaks),
    st.sampled_from(
        [
            "=?",
            "?=",
            " ",
            "\t",
            "\r\n",
            "\r",
            "\u2028",
            "\u2029",
            "Bcc: eve@evil.test",
            "=?utf-8?q?",
        ]
    ),
)
subjects = st.lists(fragments, max_size=6).map("".join).filter(lambda text: len(text) <= 255)


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
@given(subject=subjects)
async def test_any_subject_arrives_literally_with_exactly_our_headers_or_is_refused(
    orm: str, tmp_path: Path, smtp: SmtpServer, subject: str
) -> None:
    smtp.inbox.messages.clear()
    mail_id = await queue(TO, subject)
    assert await runner_for(tmp_path, orm, smtp).drain() == 1
    stored = await mail.OutboundMail.get(id=mail_id)
    if not is_line(subject, 255):  # a raw control character: refused as before
        assert stored.status == mail.FAILED and smtp.inbox.messages == []
        return
    # One line of text is never lost: it arrives, as written, and adds nothing.
    assert stored.status == mail.SENT, stored.last_error
    [message] = smtp.inbox.messages
    delivered = str(message["Subject"])
    # The writer may fold a long word onto a line of its own (a space more at the start).
    assert " ".join(delivered.split()) == " ".join(subject.split())
    assert_exactly(message, to=TO, subject=delivered, text=TEXT, html=HTML)


# What reaches a subject -------------------------------------------------------------------------

# Every value a subject template reads, and where it comes from. A new one is a new way for
# someone's text into a header: it needs its own header-injection test before it joins this list.
SUBJECT_VALUES = {
    "analysis_report": {"heading", "domain"},  # a fixed heading; a host name (valid_host)
    "new_lead": {"form", "email"},  # tests/leads/test_lead_mail_headers.py
    # The brand (seller.brand): the legal module's brand_name, validated as one line without
    # angle brackets (LegalSettings._check_seller_line), never a person's name.
    "password_reset": {"seller"},
    "site_live": {"domain"},
    "site_score_drop": {"domain", "score"},
    "speed_report": {"domain", "score", "rating"},
    "support_reply": {"subject"},  # tests/support/test_support_mail_headers.py
    "support_request": {"id", "subject", "email"},
    # An order number is formatted by billing ("AG-000042"); a plan's name is the catalogue's
    # one-line `Line` (catalogue/schemas.py), the operator's text, never a person's name; an
    # e-mail address passed valid_email; a date is formatted by the sender.
    "order_confirmation": {"order_number", "plan_name"},
    "subscription_cancelled": {"plan_name", "ends_on"},
    "cancellation_request": {"order_number", "email"},
    "cancellation_request_receipt": {"plan_name"},
    "withdrawal_receipt": {"order_number"},
    "withdrawal_request": {"order_number", "email"},
}
# Values named "...name" that are not a person's: the catalogue's plan name (see above).
NOT_A_PERSONS_NAME = {"plan_name"}


def test_only_these_values_reach_a_subject_and_no_name_does() -> None:
    folder = PACKAGE_DIR / "templates" / "email"
    environment = Environment()
    found = {
        path.name.removesuffix(".subject.txt"): meta.find_undeclared_variables(
            environment.parse(path.read_text())
        )
        for path in folder.glob("*.subject.txt")
    }
    assert found == SUBJECT_VALUES
    assert not any(
        "name" in value and value not in NOT_A_PERSONS_NAME
        for values in found.values()
        for value in values
    )
