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

Headers are judged as a mail reader reads them, after decoding RFC 2047 encoded words
(`=?utf-8?q?...?=`): Pythons without the fix for CVE-2024-6923 (3.11.7, which the binary
bundles) write a line break decoded from an encoded word out as it is, so a subject could add
headers or replace the body. A recipient whose decoded form is not what was written is refused.
A subject is not: user text reaches subjects (support, leads), and an encoded-word opener (`=?`)
in it is written inside encoded words of our own, so the reader sees the literal text and
nothing of it is decoded. Whatever the Python, the message is then written to bytes, read back
with the standard parser and sent only when it reads back as built (the same headers with the
same values in every part, the same bodies); those very bytes are what the server gets.

Reports and, later, marketing are sent `unsubscribable`: such a message is not even queued
for an address that has opted out (`MailOptOut`: only the SHA-256 of its `mailbox`, so every
spelling of one mailbox is one opt-out and no plain address is kept), and otherwise carries an
unsubscribe link (`unsubscribe_url` in its template's context: our page, where a button does
it) and the RFC 8058 one-click headers (`List-Unsubscribe` with our API's address,
`List-Unsubscribe-Post`), which mail providers POST to without any cookie or header of ours.
The link's token is the address itself with an HMAC of it under the secret key, so it works
without a table and cannot be made for another address (`unsubscribe_token`). The job checks
the opt-out again before sending: an opt-out arriving while a message waits stops it.

Copies are not kept for ever: `agency.core.retention` deletes sent messages
`AGENCY_RETENTION_MAIL_SENT_DAYS` after sending and undelivered ones (failed, or waiting in the
outbox) `AGENCY_RETENTION_MAIL_FAILED_DAYS` after they were written.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import email.policy
import hashlib
import hmac
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import EmailPolicy
from email.utils import make_msgid, parseaddr
from typing import TYPE_CHECKING, Any, Literal, overload

import aiosmtplib
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from tortoise import fields
from tortoise.exceptions import IntegrityError
from tortoise.models import Model

from agency.core import jobs, ratelimit
from agency.core.errors import ValidationFailed
from agency.core.paths import PACKAGE_DIR
from agency.core.ratelimit import Limit
from agency.core.settings import Settings
from agency.core.text import is_line, valid_email

log = logging.getLogger(__name__)

JOB_KIND = "mail.send"
QUEUED, SENT, OUTBOX, FAILED = "queued", "sent", "outbox", "failed"
# What a queued message whose recipient unsubscribed before it was sent is failed with.
UNSUBSCRIBED = "not sent: the recipient unsubscribed before it was delivered"
# The unsubscribe link's page (the web UI's) and the one-click address (the API's).
UNSUBSCRIBE_PAGE = "/unsubscribe"
UNSUBSCRIBE_PATH = "/api/mail/unsubscribe"
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

# Headers whose value is an address in angle brackets (`<https://...>`) that readers take as it
# is: a URL cannot be folded, and the generator would write one longer than a line as encoded
# words, which no mail provider decodes there. Such a value, plain ASCII without spaces and within
# SMTP's 998-character line, is written on one line as it is.
ONE_LINE_HEADERS = frozenset({"list-unsubscribe"})
_ONE_LINE_VALUE = re.compile(r"<[!-~]+>")
SMTP_LINE_MAX = 998


if TYPE_CHECKING:
    _EmailPolicy = EmailPolicy[EmailMessage]
else:
    _EmailPolicy = EmailPolicy  # not subscriptable at run time


class _Policy(_EmailPolicy):
    """`EmailPolicy`, writing the values of `ONE_LINE_HEADERS` on one line (see there)."""

    def _one_line(self, name: str, value: str) -> str | None:
        line = f"{name}: {value}"
        if (
            name.lower() in ONE_LINE_HEADERS
            and _ONE_LINE_VALUE.fullmatch(str(value))
            and len(line) <= SMTP_LINE_MAX
        ):
            return line + self.linesep
        return None

    def fold(self, name: str, value: str) -> str:
        return self._one_line(name, value) or str(super().fold(name, value))

    def fold_binary(self, name: str, value: str) -> bytes:
        line = self._one_line(name, value)
        return line.encode("ascii") if line else bytes(super().fold_binary(name, value))


# How messages are built and written: SMTP's CRLF line ends and 7-bit output (non-ASCII bodies
# quoted-printable or base64, non-ASCII headers as encoded words), so the bytes checked are the
# bytes any server gets, 8BITMIME or not. Where this Python has it (3.13; 3.12.5 and 3.11.10
# on), the generator also refuses a header holding a line break (CVE-2024-6923); our own read-back
# check (`_reads_back`) stands in for it on the others.
POLICY: EmailPolicy[EmailMessage] = _Policy(linesep="\r\n", cte_type="7bit")
if hasattr(POLICY, "verify_generated_headers"):
    POLICY = POLICY.clone(verify_generated_headers=True)
# How a mail reader reads a header: encoded words decoded.
_READER = email.policy.default
ENCODED_WORD_OPENER = "=?"


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
    # Set on an unsubscribable message: the job adds the one-click headers with it and checks
    # the recipient's opt-out before sending.
    unsubscribe_token = fields.TextField(null=True)

    class Meta:
        table = "outbound_mail"


class MailOptOut(Model):
    """A mailbox that asked for no more unsubscribable mail: the SHA-256 hex of its `mailbox`
    (never the address). Kept for good: it is what keeps the promise."""

    address_hash = fields.CharField(max_length=64, primary_key=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "mail_opt_out"


@dataclass(frozen=True)
class MailFooter:
    """What closes every e-mail (the seller's details, which a module fills in): `text` for
    the plain part, `html` a fragment (already escaped) for the HTML part; `context`, values
    every template may use besides its own (`seller`), which a template's own context overrides."""

    text: str
    html: str
    context: Mapping[str, Any] = field(default_factory=dict)
    # The sender's display name when `mail_from` gives none of its own (the brand).
    sender_name: str = ""


def render(template: str, context: dict[str, Any]) -> tuple[str, str, str]:
    """(subject, text, html) from `<template>.subject.txt`, `.txt` and `.html`, each body
    closed by the footer `configure` was given."""
    footer = _footer.get("footer")
    if footer is not None:
        context = {**footer.context, **context}
    subject = _templates.get_template(f"{template}.subject.txt").render(context).strip()
    text = _templates.get_template(f"{template}.txt").render(context)
    html = _templates.get_template(f"{template}.html").render(context)
    if footer is not None:
        text = f"{text.rstrip()}\n\n-- \n{footer.text.strip()}\n"
        html = _with_footer(html, footer.html)
    return subject, text, html


def sender(mail_from: str) -> str:
    """The From header: `mail_from` as configured, or, when it is a bare address, named by the
    footer's `sender_name` (the brand)."""
    name, address = parseaddr(mail_from)
    footer = _footer.get("footer")
    if name or footer is None or not footer.sender_name:
        return mail_from
    return str(Address(display_name=footer.sender_name, addr_spec=address))


def _with_footer(html: str, fragment: str) -> str:
    """The fragment before the document's last `</body>` (at its end without one)."""
    at = html.lower().rfind("</body>")
    if at < 0:
        return f"{html.rstrip()}\n{fragment}\n"
    return f"{html[:at].rstrip()}\n{fragment}\n{html[at:]}"


@overload
async def send_mail(
    to: str,
    template: str,
    context: dict[str, Any],
    *,
    unsubscribable: Literal[False] = False,
    reply_to: str | None = None,
) -> int: ...
@overload
async def send_mail(
    to: str,
    template: str,
    context: dict[str, Any],
    *,
    unsubscribable: bool,
    reply_to: str | None = None,
) -> int | None: ...
async def send_mail(
    to: str,
    template: str,
    context: dict[str, Any],
    *,
    unsubscribable: bool = False,
    reply_to: str | None = None,
) -> int | None:
    """Queue a message; returns its id. Delivery happens in a background job.

    `reply_to` (one address, e.g. the customer's on a request the agency answers) becomes the
    message's Reply-To header; it travels in the delivery job's payload.

    An `unsubscribable` message (one the recipient did not ask for as such: reports, marketing)
    is not queued for an address that opted out (None), and otherwise gets `unsubscribe_url`
    and `site_url` in its template's context and the one-click headers when it is sent."""
    token = None
    if unsubscribable:
        address = address_of(to)
        if await opted_out(address):
            log.info("mail not queued: the recipient unsubscribed", extra={"template": template})
            return None
        links = _unsubscribe_links()
        token = unsubscribe_token(address, links.secret)
        context = {
            **context,
            "unsubscribe_url": f"{links.public_url}{UNSUBSCRIBE_PAGE}?token={token}",
            "site_url": links.public_url,
        }
    subject, text, html = render(template, context)
    mail = await OutboundMail.create(
        to=to, subject=subject, text=text, html=html, unsubscribe_token=token
    )
    payload: dict[str, Any] = {"mail_id": mail.id}
    if reply_to:
        payload["reply_to"] = reply_to
    await jobs.enqueue(JOB_KIND, payload, max_attempts=MAX_ATTEMPTS)
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

    def build(self, mail: OutboundMail, reply_to: str | None = None) -> EmailMessage:
        message = EmailMessage(policy=POLICY)
        message["From"] = sender(self.settings.mail_from)
        message["To"] = mail.to
        if reply_to:
            message["Reply-To"] = reply_to
        set_subject(message, mail.subject)
        sender_domain = parseaddr(self.settings.mail_from)[1].rpartition("@")[2]
        message["Message-ID"] = make_msgid(domain=sender_domain or None)
        if mail.unsubscribe_token:  # RFC 8058: providers POST to the URL, body below
            url = f"{self.settings.public_url}{UNSUBSCRIBE_PATH}?token={mail.unsubscribe_token}"
            message["List-Unsubscribe"] = f"<{url}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content(mail.text)
        if mail.html:
            message.add_alternative(mail.html, subtype="html")
        return message

    def written(
        self, mail: OutboundMail, reply_to: str | None = None
    ) -> tuple[EmailMessage, bytes] | str:
        """The message and the bytes to send, or why it may not be sent: it cannot be built
        or written, or what was written does not read back as built."""
        try:
            message = self.build(mail, reply_to)
            data = message.as_bytes(policy=POLICY)
            difference = _reads_back(message, data)
        except Exception as exc:  # the same text fails the same way on every try
            return f"refused: the message cannot be written ({type(exc).__name__}: {exc})"
        if difference is not None:
            log.error(
                "mail refused: it does not read back as built",
                extra={"mail_id": mail.id, "error": difference},
            )
            return f"refused: the written message does not read back as built ({difference})"
        return message, data

    @staticmethod
    def refusal(mail: OutboundMail, reply_to: str | None = None) -> str | None:
        """Why no server may be given this message (it would go elsewhere or carry headers of
        its sender's making), or None."""
        if not _one_recipient(mail.to):
            return "refused: the recipient is not one e-mail address (or holds a line break)"
        if reply_to and not _one_recipient(reply_to):
            return "refused: the Reply-To is not one e-mail address (or holds a line break)"
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
        if mail.unsubscribe_token and await opted_out(address_of(mail.to)):
            await OutboundMail.filter(id=mail.id).update(status=FAILED, last_error=UNSUBSCRIBED)
            log.info("mail not sent: the recipient unsubscribed", extra={"mail_id": mail.id})
            return
        reply_to = payload.get("reply_to") or None
        refusal = self.refusal(mail, reply_to)
        written = self.written(mail, reply_to) if refusal is None else refusal
        if isinstance(written, str):
            await self._fail(mail, written)
            raise jobs.PermanentFailure(written)
        message, data = written
        if not self.configured:
            await OutboundMail.filter(id=mail.id).update(status=OUTBOX)
            return
        settings = self.settings
        try:
            await aiosmtplib.send(
                data,  # the bytes that were checked, not the message written again
                sender=_address_of(message, "From"),
                recipients=[_address_of(message, "To")],
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


def decoded(name: str, value: str) -> str:
    """A header's value as a mail reader shows it (encoded words decoded)."""
    return str(_READER.header_factory(name, value))


def set_subject(message: EmailMessage, subject: str) -> None:
    """Set the subject so that a reader shows exactly `subject`: text holding an encoded-word
    opener (or anything else the writer would not write as it is: spaces at either end, which
    it drops, or U+2028 and U+2029, which it takes for line breaks and refuses) is written as
    encoded words of our own, which decode to the literal text, instead of being left for the
    reader to decode."""
    plain = (
        ENCODED_WORD_OPENER not in subject
        and subject == subject.strip()
        and len(subject.splitlines()) <= 1
    )
    if plain and decoded("Subject", subject) == subject:
        message["Subject"] = subject
        return
    message.set_raw("Subject", _encoded_words(subject))


# Bytes of text per encoded word: 52 characters of base64, so "Subject: " and a word fit in the
# 78 characters under which the generator writes a line as it is (a longer one it refolds, and
# decodes on the way).
_WORD_BYTES = 39


def _encoded_words(text: str) -> str:
    """`text` as RFC 2047 encoded words (UTF-8, base64), each of whole characters, one a line:
    a reader decodes them to exactly `text` (the line breaks between them are folding, which
    decoding drops). `email.header.Header` would not do: it splits at U+2028 and U+2029."""
    chunks = [""]
    for char in text:
        if len((chunks[-1] + char).encode()) > _WORD_BYTES:
            chunks.append("")
        chunks[-1] += char
    words = (f"=?utf-8?b?{base64.b64encode(chunk.encode()).decode()}?=" for chunk in chunks)
    return "\r\n ".join(words)


def _one_recipient(to: str) -> bool:
    """`to` is one address by the one rule (a display name allowed), on one line, and reads
    the same decoded: no encoded word hides another name, a line break or a second address."""
    value = to.strip()
    named = _NAMED.fullmatch(value)
    address = named.group("address") if named else value
    if not is_line(to, 320) or not valid_email(address):
        return False
    name = value[: value.rindex("<")] if named else ""
    try:
        mailboxes = _READER.header_factory("To", value).addresses
    except Exception:  # the parser refuses it (a name decoding to a line break, say)
        return False
    return (
        len(mailboxes) == 1
        and mailboxes[0].addr_spec == address
        and " ".join(mailboxes[0].display_name.split()) == " ".join(name.split())
    )


def _address_of(message: EmailMessage, name: str) -> str:
    return str(message[name].addresses[0].addr_spec)


def _reads_back(message: EmailMessage, data: bytes) -> str | None:
    """None when `data`, read as a mail reader reads it, is `message`: every part with the same
    header names, the same values and no control character in them, and the same body; else
    what differs."""
    read = BytesParser(policy=_READER).parsebytes(data)
    ours, theirs = list(message.walk()), list(read.walk())
    if len(ours) != len(theirs):
        return f"{len(theirs)} parts read back, {len(ours)} written"
    for number, (mine, back) in enumerate(zip(ours, theirs, strict=True)):
        written = sorted((name.lower(), str(value)) for name, value in mine.items())
        got = sorted((name.lower(), str(value)) for name, value in back.items())
        if [name for name, _ in got] != [name for name, _ in written]:
            names = ", ".join(name for name, _ in got)
            return f"part {number} has the headers {names}"
        for name, value in got:
            if not is_line(value, len(value)):
                return f"part {number}'s {name} holds a control character"
        # Only the runs of spaces may differ: the writer's folding of a long word can leave a
        # space at the start of a subject (with no control character left, that is harmless).
        written = [(name, " ".join(value.split())) for name, value in written]
        got = [(name, " ".join(value.split())) for name, value in got]
        if got != written:
            names = ", ".join(a[0] for a, b in zip(got, written, strict=True) if a != b)
            return f"part {number}'s {names} read back changed"
        if not mine.is_multipart() and _body(mine) != _body(back):
            return f"part {number}'s body read back changed"
    return None


def _body(part: EmailMessage) -> str:
    return str(part.get_content()).replace("\r\n", "\n")


# Opting out ---------------------------------------------------------------------------------


# Mail services that ignore dots in the local part (one mailbox, many spellings).
_DOTLESS_DOMAINS = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


def mailbox(email: str) -> str:
    """The mailbox an address delivers to, as far as we can tell, for counting what it is sent
    and for its opt-out: lower-case, without a `+tag` (RFC 5233 subaddressing: most providers
    deliver `ann+1@` to `ann@`), and Gmail's dots and second domain dropped. Never raises."""
    local, at, domain = email.strip().lower().rpartition("@")
    if not at:
        return email.strip().lower()
    local = local.split("+", 1)[0] or local
    if domain in _DOTLESS_DOMAINS:
        domain = _DOTLESS_DOMAINS[domain]
        local = local.replace(".", "") or local
    return f"{local}@{domain}"


def address_of(to: str) -> str:
    """The address of a recipient, without its display name if it has one."""
    named = _NAMED.fullmatch(to.strip())
    return (named.group("address") if named else to).strip()


def address_hash(email: str) -> str:
    """What an opt-out keeps of an address: the SHA-256 hex of its mailbox."""
    return hashlib.sha256(mailbox(email).encode("utf-8", "backslashreplace")).hexdigest()


async def opted_out(email: str) -> bool:
    return await MailOptOut.exists(address_hash=address_hash(email))


async def opt_out(email: str) -> None:
    """Record the address's mailbox as opted out (again: nothing changes)."""
    key = address_hash(email)
    if await MailOptOut.exists(address_hash=key):
        return
    # IntegrityError: the same opt-out, recorded by a request at the same moment.
    with contextlib.suppress(IntegrityError):
        await MailOptOut.create(address_hash=key)


# The token: base64url(address) "." base64url(HMAC-SHA256(secret, purpose + address)), without
# padding. The HMAC covers the address exactly as carried (and so its mailbox); the purpose keeps
# it from being any other signature made with the same key.
_TOKEN_PURPOSE = b"agency.mail.unsubscribe\x00"
TOKEN_MAX = 4096
_B64URL = re.compile(r"[A-Za-z0-9_-]+")


@dataclass(frozen=True)
class _Links:
    secret: str
    public_url: str


_configured: dict[str, _Links] = {}
_footer: dict[str, MailFooter] = {}


def configure(settings: Settings, footer: MailFooter | None = None) -> None:
    """Give `send_mail` and `unsubscribe` the secret key and the site's address, and `render`
    the footer every message ends with (the app factory and the command line do, once per
    process, with the modules' `Module.mail_footer`)."""
    _configured["links"] = _Links(settings.effective_secret_key(), settings.public_url)
    set_footer(footer)


def set_footer(footer: MailFooter | None) -> None:
    """The footer (and shared template values) every message `render`s from now on."""
    if footer is None:
        _footer.pop("footer", None)
    else:
        _footer["footer"] = footer


def _unsubscribe_links() -> _Links:
    if "links" not in _configured:
        raise RuntimeError("agency.core.mail.configure(settings) was not called")
    return _configured["links"]


def _mac(secret: str, data: bytes) -> bytes:
    return hmac.digest(secret.encode(), _TOKEN_PURPOSE + data, hashlib.sha256)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes | None:
    """The bytes of unpadded base64url text, or None; only the one canonical spelling of any
    bytes is accepted (unused low bits set make another text of the same bytes)."""
    if not _B64URL.fullmatch(text):
        return None
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    return data if _b64(data) == text else None


def unsubscribe_token(email: str, secret: str) -> str:
    """The token of an address's unsubscribe links."""
    data = email.encode("utf-8", "backslashreplace")
    return f"{_b64(data)}.{_b64(_mac(secret, data))}"


def token_address(token: str, secret: str) -> str | None:
    """The address a token was made for, or None when it is not one of ours (forged, changed,
    cut or made with another key)."""
    if len(token) > TOKEN_MAX:
        return None
    body, dot, signature = token.partition(".")
    data, mac = _unb64(body), _unb64(signature)
    if not dot or data is None or mac is None:
        return None
    if not hmac.compare_digest(mac, _mac(secret, data)):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


MSG_UNSUBSCRIBE_INVALID = "This unsubscribe link is not valid. Please use the link from the e-mail."
# Tokens that are not ours, per client address: enough for someone mistyping a link, far too
# few to matter to anyone trying them (an HMAC-SHA256 is not guessed).
REFUSED_PER_ADDRESS = Limit("mail-unsubscribe-refused", limit=30, window=60 * 60, per_address=True)


async def unsubscribe_request(token: str | None, client: str) -> str:
    """An unsubscribe link's call: opt out the token's address and return it. A token that is
    not ours (or none) is refused with `invalid_token`, and counted per client address; a valid
    one is never refused, so no provider's retry is needed to keep an opt-out."""
    address = await unsubscribe(token) if token else None
    if address is None:
        await ratelimit.enforce(REFUSED_PER_ADDRESS, client)
        raise ValidationFailed(MSG_UNSUBSCRIBE_INVALID, code="invalid_token")
    return address


async def unsubscribe(token: str) -> str | None:
    """Opt out the address a token was made for and return it, or None for a bad token."""
    address = token_address(token, _unsubscribe_links().secret)
    if address is None:
        return None
    await opt_out(address)
    log.info("a recipient unsubscribed")
    return address
