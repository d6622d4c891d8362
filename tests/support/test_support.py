"""Support requests: visitors and customers send them (stored, e-mailed to the
agency), customers read only their own with the replies, admins list, reply (e-mailed to the
requester, the customer notified) and resolve."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agency.core import mail
from agency.core.web import job_runner
from agency.modules.auth.service import admin as auth_admin
from agency.modules.sites import api as sites_api
from agency.modules.support import service
from agency.modules.support.models import SupportReply, SupportRequest
from agency.settings import Settings
from tests.conftest import make_settings, run_agency
from tests.helpers.http import HEADERS, call, log_in, sign_up

THANKS = "Thank you! We received your request and will reply by email."
VISITOR = {
    "name": "Grace Hopper",
    "email": "Grace@Example.com",
    "subject": "A question about plans",
    "message": "Do you build shops?\nWe sell boats.",
}


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str) -> Settings:
    """The settings of this module's `app` (tests/conftest.py): the agency's address and URL."""
    return make_settings(
        tmp_path, database_url, agency_email="team@agency.test", base_url="http://shop.test"
    )


async def _mails(app: Any) -> list[mail.OutboundMail]:
    await job_runner(app.app).drain()
    return list(await mail.OutboundMail.all().order_by("id"))


async def _admin(client: Any) -> None:
    await call(client, "post", "/api/auth/logout")
    await sign_up(client, "admin@agency.test")
    await auth_admin.set_role("admin@agency.test", "admin")


async def test_a_visitor_request_is_stored_and_reaches_the_agency(app: Any) -> None:
    client = app.test_client()
    assert await call(client, "post", "/api/support", VISITOR) == (201, {"message": THANKS})
    row = await SupportRequest.get()
    assert (row.user_id, row.name, row.email, row.subject, row.status) == (
        None,
        "Grace Hopper",
        "grace@example.com",
        "A question about plans",
        "open",
    )
    assert row.message == "Do you build shops?\nWe sell boats."
    [notice] = await _mails(app)
    assert notice.to == "team@agency.test"
    assert (
        notice.subject
        == f"Support request #{row.id}: A question about plans from grace@example.com"
    )
    assert "We sell boats." in notice.text and "no (a visitor)" in notice.text
    assert "http://shop.test/dashboard/admin/support" in notice.text
    # A visitor has no list of their own.
    assert (await call(client, "get", "/api/support"))[0] == 401


@pytest.mark.parametrize(
    ("missing", "message"),
    [
        ("name", "Please enter your name"),
        ("email", "Please enter your email address"),
        ("subject", "Please enter a subject"),
        ("message", "Please enter a message"),
    ],
)
async def test_a_visitor_must_fill_every_field(app: Any, missing: str, message: str) -> None:
    status, data = await call(app.test_client(), "post", "/api/support", {**VISITOR, missing: " "})
    assert status == 400
    assert data["error"]["message"] == message and data["error"]["fields"] == {missing: message}
    assert await SupportRequest.all().count() == 0


async def test_every_missing_field_is_named_at_once(app: Any) -> None:
    status, data = await call(app.test_client(), "post", "/api/support", {})
    assert status == 400
    assert data["error"]["message"] == "Please enter your name"
    assert set(data["error"]["fields"]) == {"name", "email", "subject", "message"}


@pytest.mark.parametrize("email", ["grace", "grace@", "a@b.c?cc=x@y.z", "a b@example.com"])
async def test_a_bad_email_is_refused(app: Any, email: str) -> None:
    status, data = await call(
        app.test_client(), "post", "/api/support", {**VISITOR, "email": email}
    )
    assert status == 400
    assert data["error"]["fields"] == {"email": "Please enter a valid email address"}


async def test_the_honeypot_drops_bots_quietly(app: Any) -> None:
    body = {**VISITOR, "company_website": "http://spam.example"}
    assert await call(app.test_client(), "post", "/api/support", body) == (
        201,
        {"message": THANKS},
    )
    assert await SupportRequest.all().count() == 0
    assert await _mails(app) == []


async def test_the_public_form_is_rate_limited_per_address(app: Any) -> None:
    client = app.test_client()
    for _ in range(service.REQUESTS_PER_ADDRESS.limit):
        assert (await call(client, "post", "/api/support", VISITOR))[0] == 201
    status, data = await call(client, "post", "/api/support", VISITOR)
    assert status == 429, data
    assert await SupportRequest.all().count() == service.REQUESTS_PER_ADDRESS.limit


async def test_a_customer_request_uses_the_account_and_one_of_their_websites(app: Any) -> None:
    client = app.test_client()
    _, data = await sign_up(client, "ada@example.com")
    ada = data["user"]["id"]
    website = await sites_api.create_website(ada, "ada-shop.com")
    other = await sites_api.create_website(ada + 1000, "someone-else.com")
    body = {"subject": "Slow site", "message": "It is slow.", "website_id": other.id}
    status, data = await call(client, "post", "/api/support", body)
    assert status == 400
    assert data["error"]["fields"] == {"website_id": "Please choose one of your websites"}
    body["website_id"] = website.id
    body["name"], body["email"] = "Someone Else", "else@example.com"  # the account's win
    assert (await call(client, "post", "/api/support", body))[0] == 201
    row = await SupportRequest.get()
    assert (row.user_id, row.name, row.email, row.website_id, row.website_domain) == (
        ada,
        "Ada Lovelace",
        "ada@example.com",
        website.id,
        "ada-shop.com",
    )
    [notice] = await _mails(app)
    assert "Website:  ada-shop.com" in notice.text and "Customer: yes" in notice.text
    status, data = await call(client, "get", "/api/support")
    assert status == 200
    [mine] = data["requests"]
    assert (mine["subject"], mine["status"], mine["website_domain"], mine["replies"]) == (
        "Slow site",
        "open",
        "ada-shop.com",
        [],
    )
    assert "email" not in mine  # the customer's view carries no personal columns it does not need


async def test_a_visitor_cannot_name_a_website(app: Any) -> None:
    status, data = await call(
        app.test_client(), "post", "/api/support", {**VISITOR, "website_id": 1}
    )
    assert status == 400 and set(data["error"]["fields"]) == {"website_id"}


async def test_the_reply_reaches_the_customer_and_the_status_changes(app: Any) -> None:
    client = app.test_client()
    await sign_up(client, "ada@example.com")
    body = {"subject": "Domain", "message": "Can you move my domain?"}
    assert (await call(client, "post", "/api/support", body))[0] == 201
    request_id = (await SupportRequest.get()).id
    await _admin(client)
    status, data = await call(client, "get", "/api/admin/support?status=open")
    assert status == 200 and [r["id"] for r in data["requests"]] == [request_id]
    assert data["requests"][0]["email"] == "ada@example.com"
    status, data = await call(
        client, "post", f"/api/admin/support/{request_id}/reply", {"body": "  "}
    )
    assert status == 400 and data["error"]["message"] == "Please write a reply"
    status, data = await call(
        client,
        "post",
        f"/api/admin/support/{request_id}/reply",
        {"body": "Yes, we can.\nSend us the code."},
    )
    assert status == 200
    assert data["status"] == "answered"
    assert [r["body"] for r in data["replies"]] == ["Yes, we can.\nSend us the code."]
    reply = await SupportReply.get()
    assert reply.admin_id is not None
    assert (await call(client, "get", "/api/admin/support?status=open"))[1]["requests"] == []
    to_agency, to_customer = await _mails(app)
    assert to_agency.to == "team@agency.test"
    assert (to_customer.to, to_customer.subject) == ("ada@example.com", "Re: Domain")
    assert "Send us the code." in to_customer.text
    assert "http://shop.test/dashboard/support" in to_customer.text
    # The customer sees the reply and a notification.
    await log_in(client, "ada@example.com")
    _, data = await call(client, "get", "/api/support")
    assert data["requests"][0]["status"] == "answered"
    assert data["requests"][0]["replies"][0]["body"] == "Yes, we can.\nSend us the code."
    _, data = await call(client, "get", "/api/notifications")
    assert data["unread"] == 1
    assert (data["notifications"][0]["kind"], data["notifications"][0]["link"]) == (
        "support_answered",
        "/dashboard/support",
    )
    assert data["notifications"][0]["title"] == "We answered: Domain"
    # Resolved, twice is harmless.
    await log_in(client, "admin@agency.test")
    for _ in range(2):
        status, data = await call(client, "post", f"/api/admin/support/{request_id}/resolve")
        assert (status, data["status"]) == (200, "resolved")
    _, data = await call(client, "get", "/api/admin/support?status=resolved")
    assert [r["id"] for r in data["requests"]] == [request_id]


async def test_a_visitor_gets_the_reply_by_email_without_a_notification(app: Any) -> None:
    client = app.test_client()
    await call(client, "post", "/api/support", VISITOR)
    request_id = (await SupportRequest.get()).id
    await _admin(client)
    status, _ = await call(
        client, "post", f"/api/admin/support/{request_id}/reply", {"body": "We do."}
    )
    assert status == 200
    _, to_visitor = await _mails(app)
    assert to_visitor.to == "grace@example.com" and "We do." in to_visitor.text
    assert "/dashboard/support" not in to_visitor.text  # no account to look at


async def test_a_second_customer_cannot_read_the_first_ones_requests(app: Any) -> None:
    client = app.test_client()
    await sign_up(client, "ada@example.com")
    await call(client, "post", "/api/support", {"subject": "Ada's", "message": "Private."})
    await call(client, "post", "/api/auth/logout")
    await sign_up(client, "eve@example.com")
    assert (await call(client, "get", "/api/support"))[1] == {"requests": []}
    request_id = (await SupportRequest.get()).id
    for path in (
        "/api/admin/support",
        f"/api/admin/support/{request_id}/resolve",
        f"/api/admin/support/{request_id}/reply",
    ):
        method = "get" if path == "/api/admin/support" else "post"
        status, _ = await call(client, method, path, {"body": "x"} if "reply" in path else None)
        assert status == 403, path
    await call(client, "post", "/api/auth/logout")
    assert (await call(client, "get", "/api/admin/support"))[0] == 401
    assert (await SupportRequest.get()).status == "open"


async def test_admin_errors(app: Any) -> None:
    client = app.test_client()
    await _admin(client)
    status, data = await call(client, "get", "/api/admin/support?status=closed")
    assert status == 400
    assert data["error"]["message"] == "Status must be open, answered or resolved."
    for action, body in (("reply", {"body": "x"}), ("resolve", None)):
        for request_id in (999, 0, 2**31, 10**22):
            path = f"/api/admin/support/{request_id}/{action}"
            status, data = await call(client, "post", path, body)
            assert (status, data["error"]["message"]) == (404, "Support request not found.")


async def test_export_and_erase_with_the_account(app: Any) -> None:
    client = app.test_client()
    # Sent as a visitor first, then as the customer: both are theirs.
    await call(client, "post", "/api/support", {**VISITOR, "email": "ada@example.com"})
    await sign_up(client, "ada@example.com")
    await call(client, "post", "/api/support", {"subject": "Mine", "message": "Hello."})
    await call(client, "post", "/api/auth/logout")
    await call(client, "post", "/api/support", VISITOR)  # someone else's
    await log_in(client, "ada@example.com")
    _, export = await call(client, "get", "/api/account/export")
    assert [r["subject"] for r in export["support"]] == ["Mine", "A question about plans"]
    await call(client, "post", "/api/account/delete", {"current_password": "correct horse"})
    assert await SupportRequest.all().values_list("email", flat=True) == ["grace@example.com"]


@pytest.mark.slow  # runs the `agency` command in a subprocess
async def test_agency_support_list(app: Any, tmp_path: Path, database_url: str) -> None:
    client = app.test_client()
    await call(client, "post", "/api/support", VISITOR)
    env = {"AGENCY_DATABASE_URL": database_url, "AGENCY_DATA_DIR": str(tmp_path)}
    result = run_agency(tmp_path, "support", "list", **env)
    assert result.returncode == 0, result.stderr
    assert "1 support request(s)" in result.stdout
    assert "A question about plans" in result.stdout and "(visitor)" in result.stdout
    result = run_agency(tmp_path, "support", "list", "--status", "resolved", **env)
    assert "0 support request(s)" in result.stdout
    result = run_agency(tmp_path, "support", "list", "--status", "closed", **env)
    assert result.returncode == 2


fixture_ok = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=25, deadline=None
)


@fixture_ok
@given(
    name=st.text(max_size=30),
    email=st.text(max_size=30) | st.emails(),
    subject=st.text(max_size=30),
    message=st.text(max_size=60),
)
async def test_the_form_either_stores_a_clean_request_or_says_why(
    app: Any, name: str, email: str, subject: str, message: str
) -> None:
    """Any input: 201 with a stored, trimmed request, or a 400 that names fields; never 500."""
    await SupportRequest.all().delete()
    body = {"name": name, "email": email, "subject": subject, "message": message}
    response = await app.test_client().post("/api/support", json=body, headers=HEADERS)
    data = await response.get_json()
    assert response.status_code in (201, 400, 429), data
    if response.status_code == 201:
        row = await SupportRequest.get()
        assert row.name == " ".join(name.split()) and row.subject == " ".join(subject.split())
        assert row.email == email.strip().lower() and row.message == message.strip()
    elif response.status_code == 400:
        assert data["error"]["message"]
