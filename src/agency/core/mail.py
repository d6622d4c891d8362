"""Outgoing e-mail through a persistent queue.

`send_mail` renders a template into a row of `outbound_mail` and queues a job; the job delivers
it over SMTP (aiosmtplib) and is retried with back-off while the server is down, so nothing is
lost; when its job gives up (`MAX_ATTEMPTS`, about a day) the message is marked `failed` with
the last error. A message no server may be given fails at once, without retries: a recipient
that is not one e-mail address (the one rule of `agency.core.text`, optionally with a display
name) or a recipient or subject holding a line break or another control character (which would
add headers). So does one the server refuses for good (every recipient refused with a 5xx
code). Without an SMTP server configured the message stays in the outbox, where
`agency mail outbox` shows it: a fresh install works without a mail server.

Copies are not kept for ever: `agency.core.retention` deletes sent messages
`AGENCY_RETENTION_MAIL_SENT_DAYS` after sending and undelivered ones (failed, or waiting in the
outbox) `AGENCY_RETENTION_MAIL_FAILED_DAYS` after they were written.
"""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import make_msgid, parseaddr
from typing import Any

import aiosmtplib
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from tortoise import fields
from tortoise.models import Model

from agency.core import jobs
from agency.core.paths import PACKAGE_DIR
from agency.core.settings import Settings
from agency.core.text import is_line, valid_email

log = logging.getLogger(__name__)

JOB_KIND = "mail.send"
QUEUED, SENT, OUTBOX, FAILED = "queued", "sent", "outbox", "failed"
# With the queue's back-off (capped at an hour) this keeps retrying for about a day.
MAX_ATTEMPTS = 30

_templates = Environment(
    loader=FileSystemLoader(PACKAGE_DIR / "templates" / "email"),
    autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
    undefined=StrictUndefined,
    keep_trailing_newline=True,
)


# "Display Name <address>": a name without the characters that would make it more than one
# name (quotes, angle brackets, commas, semicolons, colons, at signs, backslashes).
_NAMED = re.compile(r'[^"<>,;:@\\]*<(?P<address>[^<>]*)>')


class OutboundMail(Model):
    id = fields.BigIntField(primary_key=True)
    to = fields.CharField(max_length=320)
    subject = fields.CharField(max_length=255)
    text = fields.TextField()
    html = fields.TextField(null=True)
    status = fields.CharField(max_length=16, default=QUEUED, db_index=True)
    last_error = fields.TextField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    sent_at = fields.DatetimeField(null=True)

    class Meta:
        table = "outbound_mail"


def render(template: str, context: dict[str, Any]) -> tuple[str, str, str]:
    """(subject, text, html) from `<template>.subject.txt`, `.txt` and `.html`."""
    subject = _templates.get_template(f"{template}.subject.txt").render(context).strip()
    text = _templates.get_template(f"{template}.txt").render(context)
    html = _templates.get_template(f"{template}.html").render(context)
    return subject, text, html


async def send_mail(to: str, template: str, context: dict[str, Any]) -> int:
    """Queue a message; returns its id. Delivery happens in a background job."""
    subject, text, html = render(template, context)
    mail = await OutboundMail.create(to=to, subject=subject, text=text, html=html)
    await jobs.enqueue(JOB_KIND, {"mail_id": mail.id}, max_attempts=MAX_ATTEMPTS)
    return int(mail.id)


async def outbox(limit: int = 50) -> list[OutboundMail]:
    """Messages not (yet) delivered, newest first."""
    return (
        await OutboundMail.filter(status__in=[OUTBOX, QUEUED, FAILED])
        .order_by("-created_at")
        .limit(limit)
    )


class Mailer:
    """Delivers queued messages with the configured SMTP server."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @property
    def configured(self) -> bool:
        return bool(self.settings.smtp_host)

    def build(self, mail: OutboundMail) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.settings.mail_from
        message["To"] = mail.to
        message["Subject"] = mail.subject
        sender_domain = parseaddr(self.settings.mail_from)[1].rpartition("@")[2]
        message["Message-ID"] = make_msgid(domain=sender_domain or None)
        message.set_content(mail.text)
        if mail.html:
            message.add_alternative(mail.html, subtype="html")
        return message

    @staticmethod
    def refusal(mail: OutboundMail) -> str | None:
        """Why no server may be given this message (it would go elsewhere or carry headers of
        its sender's making), or None."""
        named = _NAMED.fullmatch(mail.to.strip())
        address = named.group("address") if named else mail.to.strip()
        if not is_line(mail.to, 320) or not valid_email(address):
            return "refused: the recipient is not one e-mail address (or holds a line break)"
        if not is_line(mail.subject, 255):
            return "refused: the subject holds a line break or another control character"
        return None

    async def _fail(self, mail: OutboundMail, error: str) -> None:
        await OutboundMail.filter(id=mail.id).update(status=FAILED, last_error=error[:2000])
        log.warning("mail not delivered", extra={"mail_id": mail.id, "error": error[:200]})

    async def deliver(self, payload: dict[str, Any]) -> None:
        """Job handler: send one message, or leave it in the outbox without SMTP."""
        mail = await OutboundMail.get_or_none(id=payload["mail_id"])
        if mail is None or mail.status == SENT:
            return
        refusal = self.refusal(mail)
        if refusal is not None:
            await self._fail(mail, refusal)
            raise jobs.PermanentFailure(refusal)
        if not self.configured:
            await OutboundMail.filter(id=mail.id).update(status=OUTBOX)
            return
        settings = self.settings
        try:
            await aiosmtplib.send(
                self.build(mail),
                hostname=settings.smtp_host,
                port=settings.smtp_port,
                username=settings.smtp_username or None,
                password=settings.smtp_password or None,
                use_tls=settings.smtp_security == "tls",
                start_tls=settings.smtp_security == "starttls",
                timeout=settings.smtp_timeout,
            )
        except aiosmtplib.SMTPRecipientsRefused as exc:
            if all(refused.code >= 500 for refused in exc.recipients):  # a permanent answer
                error = "; ".join(f"{r.recipient}: {r.code} {r.message}" for r in exc.recipients)
                await self._fail(mail, f"refused by the server: {error}")
                raise jobs.PermanentFailure(error) from exc
            await self._keep_trying(mail, exc)
            raise
        except Exception as exc:
            await self._keep_trying(mail, exc)
            raise  # the job queue retries with back-off
        await OutboundMail.filter(id=mail.id).update(
            status=SENT, sent_at=datetime.now(UTC), last_error=None
        )
        log.info("mail sent", extra={"mail_id": mail.id, "subject": mail.subject})

    async def _keep_trying(self, mail: OutboundMail, exc: Exception) -> None:
        """Record a failed try; on the job's last attempt the message is failed for good."""
        error = f"{exc}" or type(exc).__name__
        if jobs.final_attempt():
            await self._fail(mail, error)
        else:
            await OutboundMail.filter(id=mail.id).update(last_error=error[:2000])
