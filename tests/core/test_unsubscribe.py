"""Unsubscribing from reports, through the HTTP API on SQLite and
PostgreSQL with a real SMTP server: a report carries RFC 8058's one-click headers and a link;
the one-click POST a mail provider sends (a form, without our CSRF header) opts the mailbox out,
whatever the spelling of its address; later reports for it are not queued, and one already
queued is not sent. A token that is not ours answers 400, never 500, and no plain address is
stored."""

from __future__ import annotations

import base64
import re
import string
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core import jobs, mail
from agency.core.web import job_runner, unsubscribe
from agency.modules.speedtest.models import SpeedTest
from agency.settings import Settings, load_settings
from tests.analysis import test_analyses as analysis_tests
from tests.fakes.customer_site import CustomerSite
from tests.fakes.pagespeed import FakePageSpeed
from tests.fakes.smtp import SmtpServer
from tests.helpers.http import HEADERS
from tests.speedtest import test_speedtests as speed_tests

BASE = "http://agency.example"
TYPED = "Ann.Lee+speed@gmail.com"
ADDRESS = TYPED.lower()  # as the speed test keeps it
# The same mailbox, spelt otherwise: the opt-out holds for each.
OTHER_SPELLINGS = ["annlee@googlemail.com", "ANN.LEE@GMAIL.COM", "a.nnlee+x@gmail.com"]
ONE_CLICK = {"Content-Type": "application/x-www-form-urlencoded"}
INVALID = {"error": {"code": "invalid_token", "message": unsubscribe.MSG_INVALID}}
SECRET = "test-secret-key-" + "x" * 32


@pytest.fixture
def app_settings(
    tmp_path: Path,
    database_url: str,
    psi: FakePageSpeed,
    customer_site: CustomerSite,
    smtp_port: int,
) -> Settings:
    """This module's `app` (tests/conftest.py) is behind one trusted proxy, sending mail to the
    SMTP port (a server listens there when the test asks for `smtp`), with the fake PageSpeed
    and the local customer site."""
    return analysis_tests.settings_for(
        tmp_path,
        database_url,
        psi,
        customer_site,
        speedtest_reuse_minutes=0,
        smtp_host="127.0.0.1",
        smtp_port=smtp_port,
        smtp_security="none",
    )


async def speed_test(app: Any, email: str, domain: str, ip: str) -> dict[str, Any]:
    """A speed test for `email`, run to the end (its e-mail job too); the test as the page
    reads it."""
    body = {"url": domain, "email": email, "source": "speed-test", "strategy": "mobile"}
    status, data, _ = await speed_tests.call(app, "post", "/api/speed-tests", body, ip)
    assert status == 202, data
    done: dict[str, Any] = await speed_tests.finish(app, data["id"])
    assert done["status"] == "done" and done["result"]["score"] >= 0, done
    return done


def one_click_url(message: EmailMessage) -> str:
    """The List-Unsubscribe address as the message's bytes carry it: one line, no encoded
    word (no provider decodes them there), in angle brackets."""
    [raw] = [value for name, value in message.raw_items() if name == "List-Unsubscribe"]
    assert "=?" not in raw and "\n" not in raw
    assert raw.startswith("<") and raw.endswith(">")
    return raw[1:-1]


def page_link(message: EmailMessage) -> str:
    """The unsubscribe link of the text part (the HTML part links to the same page)."""
    text = message.get_body(preferencelist=("plain",))
    assert text is not None
    content = str(text.get_content()).replace("\r\n", "\n")
    found = re.search(r"^Unsubscribe: (\S+)$", content, re.MULTILINE)
    assert found, content
    html = message.get_body(preferencelist=("html",))
    assert html is not None
    assert f'<a href="{found.group(1)}"' in html.get_content()
    return found.group(1)


def token_of(url: str) -> str:
    [token] = parse_qs(urlsplit(url).query)["token"]
    return str(token)


async def one_click(app: Any, url: str, ip: str = "192.0.2.50") -> Any:
    """What a mail provider sends for RFC 8058: a form POST to the header's address, with no
    cookie, no CSRF header and no Origin of ours."""
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}" == BASE and parts.path == mail.UNSUBSCRIBE_PATH
    return await app.test_client().post(
        parts.path,
        query_string={"token": token_of(url)},
        data=b"List-Unsubscribe=One-Click",
        headers={**ONE_CLICK, "X-Forwarded-For": ip},
    )


async def post_json(app: Any, body: Any, ip: str = "192.0.2.60") -> Any:
    headers = {**HEADERS, "X-Forwarded-For": ip}
    return await app.test_client().post(mail.UNSUBSCRIBE_PATH, json=body, headers=headers)


async def test_a_report_carries_one_click_headers_and_a_link_that_stops_the_next_ones(
    app: Any, smtp: SmtpServer
) -> None:
    await speed_test(app, TYPED, "shop.example", "203.0.113.1")
    [report] = smtp.inbox.messages
    assert report["To"] == ADDRESS
    assert report["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    header_url = one_click_url(report)
    link = page_link(report)
    assert link.startswith(f"{BASE}/unsubscribe?token=")
    assert token_of(link) == token_of(header_url)
    text = smtp.inbox.text_of(report)
    assert f"someone asked for it at {BASE} with this address" in text

    response = await one_click(app, header_url)
    assert response.status_code == 200, await response.get_data()
    assert await response.get_json() == {"address": ADDRESS, "unsubscribed": True}
    # Idempotent: the provider may retry, our page may post the same token.
    again = await post_json(app, {"token": token_of(link)})
    assert again.status_code == 200
    assert await again.get_json() == {"address": ADDRESS, "unsubscribed": True}
    [opt_out] = await mail.MailOptOut.all()
    assert opt_out.address_hash == mail.address_hash("annlee@gmail.com")
    assert re.fullmatch(r"[0-9a-f]{64}", opt_out.address_hash)  # no plain address kept

    # The mailbox, spelt any way: the tests still run and show their result; nothing is sent.
    queued = await mail.OutboundMail.all().count()
    for n, spelling in enumerate(OTHER_SPELLINGS):
        await speed_test(app, spelling, f"next-{n}.example", f"198.51.100.{n}")
    assert await mail.OutboundMail.all().count() == queued
    assert len(smtp.inbox.messages) == 1
    assert await SpeedTest.filter(status="done").count() == 1 + len(OTHER_SPELLINGS)
    # An analysis for it runs and shows too, without an e-mail.
    status, data = await analysis_tests.start(
        app, analysis_tests.DOMAIN, email=OTHER_SPELLINGS[0], ip="198.51.100.9"
    )
    assert status == 202, data
    done = await analysis_tests.finish(app, data["id"])
    assert done["status"] == "done" and done["report"]["overview"]
    assert await mail.OutboundMail.all().count() == queued
    # Another mailbox still gets its report.
    await speed_test(app, "owner@shop.example", "last.example", "198.51.100.20")
    assert [m["To"] for m in smtp.inbox.messages] == [ADDRESS, "owner@shop.example"]


async def test_an_analysis_report_carries_the_headers_too(app: Any, smtp: SmtpServer) -> None:
    status, data = await analysis_tests.start(
        app, analysis_tests.DOMAIN, email="buyer@shop.example", ip="198.51.100.30"
    )
    assert status == 202, data
    assert (await analysis_tests.finish(app, data["id"]))["status"] == "done"
    await job_runner(app.app).drain()
    [report] = [m for m in smtp.inbox.messages if analysis_tests.DOMAIN in str(m["Subject"])]
    assert report["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert token_of(one_click_url(report)) == token_of(page_link(report))
    response = await one_click(app, one_click_url(report))
    assert await response.get_json() == {"address": "buyer@shop.example", "unsubscribed": True}


async def test_a_queued_report_is_not_sent_once_its_recipient_unsubscribed(
    app: Any, smtp_port: int
) -> None:
    """The SMTP server is down when the report is queued; the recipient unsubscribes (with
    the link of another report, or a provider's one-click) before it comes back."""
    await speed_test(app, ADDRESS, "shop.example", "203.0.113.1")
    [waiting] = await mail.OutboundMail.all()
    assert waiting.status == mail.QUEUED and waiting.last_error  # the server is down
    link = re.search(r"^Unsubscribe: (\S+)$", waiting.text, re.MULTILINE)
    assert link is not None
    response = await post_json(app, {"token": token_of(link.group(1))})
    assert response.status_code == 200
    server = SmtpServer(smtp_port)
    server.start()
    try:
        job = await jobs.Job.get(kind=mail.JOB_KIND)
        await jobs.Job.filter(id=job.id).update(run_at=job.created_at)  # its back-off is over
        await job_runner(app.app).drain()
    finally:
        server.stop()
    assert server.inbox.messages == []
    stored = await mail.OutboundMail.get(id=waiting.id)
    assert stored.status == mail.FAILED and stored.last_error == mail.UNSUBSCRIBED
    assert (await jobs.Job.get(id=job.id)).status == jobs.DONE  # nothing left to retry


def forged_tokens() -> dict[str, str]:
    mine = mail.unsubscribe_token(ADDRESS, SECRET)
    other = mail.unsubscribe_token("eve@evil.example", SECRET)
    body, _, signature = mine.partition(".")
    other_body, _, other_signature = other.partition(".")
    return {
        "another key": mail.unsubscribe_token(ADDRESS, "another secret key " + "y" * 30),
        "another address with this signature": f"{other_body}.{signature}",
        "this address with another's signature": f"{body}.{other_signature}",
        "cut": mine[:-3],
        "no signature": body,
        "no dot": body + signature,
        "padding added": f"{body}==.{signature}",
        "garbage": "not a token",
        "empty signature": f"{body}.",
        "control characters": f"{body}\x00.{signature}",
        "non-ascii": "ünsubscribe.é",
        "very long": "A" * 10_000 + "." + signature,
    }


@pytest.mark.parametrize("token", forged_tokens().values(), ids=forged_tokens().keys())
async def test_a_token_that_is_not_ours_answers_400(app: Any, token: str) -> None:
    for response in (
        await app.test_client().post(
            mail.UNSUBSCRIBE_PATH,
            query_string={"token": token},
            data=b"List-Unsubscribe=One-Click",
            headers={**ONE_CLICK, "X-Forwarded-For": "192.0.2.70"},
        ),
        await post_json(app, {"token": token}),
    ):
        assert response.status_code == 400, await response.get_data()
        error = (await response.get_json())["error"]
        assert error["message"] == unsubscribe.MSG_INVALID
        # A JSON token no schema takes (a NUL, 5,000 characters) is refused as a bad body.
        assert error["code"] in ("invalid_token", "validation_error")
    assert await mail.MailOptOut.all().count() == 0


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"", None),
        (b"List-Unsubscribe=One-Click", "application/x-www-form-urlencoded"),
        (b"\xff\xfe", "text/plain"),
    ],
)
async def test_a_call_without_a_token_answers_400(
    app: Any, body: bytes, content_type: str | None
) -> None:
    headers = {"X-Forwarded-For": "192.0.2.80"}
    if content_type:
        headers["Content-Type"] = content_type
    response = await app.test_client().post(mail.UNSUBSCRIBE_PATH, data=body, headers=headers)
    assert response.status_code == 400
    assert await response.get_json() == INVALID


@pytest.mark.parametrize(
    "body",
    [b"{}", b'{"token": 5}', b'{"token": null}', b"[1, 2]", b'"token"', b'{"token": "a\\u0000"}'],
)
async def test_a_json_body_without_a_token_answers_400(app: Any, body: bytes) -> None:
    headers = {"Content-Type": "application/json", "X-Forwarded-For": "192.0.2.81"}
    response = await app.test_client().post(mail.UNSUBSCRIBE_PATH, data=body, headers=headers)
    assert response.status_code == 400
    error = (await response.get_json())["error"]
    assert error["code"] == "validation_error" and error["message"] == unsubscribe.MSG_INVALID


async def test_a_body_that_claims_json_and_is_not_answers_400(app: Any) -> None:
    response = await app.test_client().post(
        mail.UNSUBSCRIBE_PATH, data=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert (await response.get_json())["error"]["code"] == "validation_error"


async def test_refused_tokens_are_limited_per_client_and_good_ones_never(app: Any) -> None:
    limit = unsubscribe.REFUSED_PER_ADDRESS.limit
    statuses = [
        (await post_json(app, {"token": f"bad-{n}"}, ip="2001:db8:5::1")).status_code
        for n in range(limit + 2)
    ]
    assert statuses == [400] * limit + [429] * 2
    good = mail.unsubscribe_token("ann@example.com", SECRET)
    response = await post_json(app, {"token": good}, ip="2001:db8:5::2")  # same /64
    assert response.status_code == 200
    assert await mail.opted_out("ann@example.com")


async def test_a_get_never_unsubscribes_it_leads_to_the_page(app: Any) -> None:
    """Link scanners and previews GET every address of a message."""
    token = mail.unsubscribe_token(ADDRESS, SECRET)
    response = await app.test_client().get(mail.UNSUBSCRIBE_PATH, query_string={"token": token})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/unsubscribe?token={token}"
    assert await mail.MailOptOut.all().count() == 0
    bare = await app.test_client().get(mail.UNSUBSCRIBE_PATH)
    assert bare.status_code == 303 and bare.headers["Location"] == "/unsubscribe"


async def test_an_unsubscribable_message_is_not_queued_for_an_opted_out_mailbox(
    orm: str, tmp_path: Path
) -> None:
    mail.configure(load_settings(secret_key=SECRET, base_url=BASE, data_dir=tmp_path))
    await mail.opt_out("ann.lee@gmail.com")
    await mail.opt_out("ANNLEE@gmail.com")  # again: nothing changes
    assert await mail.MailOptOut.all().count() == 1
    context = {"first_name": "Ann", "reset_url": "x", "valid_minutes": 60}
    assert await mail.send_mail(ADDRESS, "password_reset", context, unsubscribable=True) is None
    # A message the recipient asked for (a password reset) is not held back by an opt-out.
    assert await mail.send_mail(ADDRESS, "password_reset", context) is not None
    assert await mail.OutboundMail.all().count() == 1


# The token ------------------------------------------------------------------------------------

addresses = st.text(min_size=1, max_size=320)


@given(address=addresses, secret=st.text(min_size=1, max_size=64))
def test_a_token_carries_its_address_back(address: str, secret: str) -> None:
    token = mail.unsubscribe_token(address, secret)
    assert re.fullmatch(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+", token)  # safe in a URL as it is
    expected = address.encode("utf-8", "backslashreplace").decode()
    assert mail.token_address(token, secret) == expected
    assert mail.token_address(token, secret + "x") is None


@given(
    address=addresses,
    position=st.integers(min_value=0),
    change=st.sampled_from(["replace", "delete", "insert", "swap case"]),
    char=st.characters(),
)
def test_any_changed_token_is_refused(address: str, position: int, change: str, char: str) -> None:
    token = mail.unsubscribe_token(address, SECRET)
    at = position % len(token)
    if change == "replace":
        changed = token[:at] + char + token[at + 1 :]
    elif change == "delete":
        changed = token[:at] + token[at + 1 :]
    elif change == "insert":
        changed = token[:at] + char + token[at:]
    else:
        changed = token[:at] + token[at].swapcase() + token[at + 1 :]
    if changed != token:
        assert mail.token_address(changed, SECRET) is None


@pytest.mark.parametrize("address", ["ann@example.com", "a@b.co", "bo@example.org"])
def test_another_spelling_of_the_same_bytes_is_refused(address: str) -> None:
    """Base64 text whose last character sets bits no byte uses decodes to the same bytes: a
    second token for one address, which a tamper check by bytes alone would miss."""
    alphabet = string.ascii_uppercase + string.ascii_lowercase + string.digits + "-_"
    token = mail.unsubscribe_token(address, SECRET)
    body, _, signature = token.partition(".")
    variants = []
    for part, rebuild in ((body, "{}." + signature), (signature, body + ".{}")):
        data = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
        for char in alphabet:
            other = part[:-1] + char
            same = base64.urlsafe_b64decode(other + "=" * (-len(other) % 4)) == data
            if other != part and same:
                variants.append(rebuild.format(other))
    assert variants  # a 32-byte signature leaves two bits unused, for one
    for variant in variants:
        assert mail.token_address(variant, SECRET) is None, variant


@given(text=st.text(max_size=600))
def test_any_text_is_refused_or_read_without_raising(text: str) -> None:
    assert mail.token_address(text, SECRET) is None


def test_the_longest_address_still_makes_a_one_line_header(tmp_path: Path) -> None:
    """A 254-character address makes a 400-odd character URL: written as it is, on one line,
    and reading back as built."""
    address = f"{'a' * 64}@{'b' * 63}.{'c' * 63}.{'d' * 53}.example"
    assert len(address) == 254
    token = mail.unsubscribe_token(address, SECRET)
    settings = load_settings(base_url=BASE, data_dir=tmp_path, secret_key=SECRET)
    row = mail.OutboundMail(
        id=1, to=address, subject="Report", text="x\n", html="<p>x</p>", unsubscribe_token=token
    )
    written = mail.Mailer(settings).written(row)
    assert not isinstance(written, str), written
    _, data = written
    lines = data.decode("ascii").split("\r\n")
    [header] = [line for line in lines if line.startswith("List-Unsubscribe:")]
    assert header == f"List-Unsubscribe: <{BASE}{mail.UNSUBSCRIBE_PATH}?token={token}>"
    assert len(header) <= mail.SMTP_LINE_MAX
