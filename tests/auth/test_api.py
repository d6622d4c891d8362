"""The accounts API through HTTP, on SQLite and PostgreSQL: every message the spec maps."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from agency.core import mail
from agency.core.web import job_runner
from tests.helpers.http import HEADERS, PASSWORD, call, error_message, log_in, sign_up


def session_cookie(response: Any) -> str:
    return next(
        v for v in response.headers.getlist("Set-Cookie") if v.startswith("agency_session=")
    )


async def test_sign_up_creates_user_and_profile_and_signs_in(client: Any) -> None:
    status, data = await sign_up(client, email="  Ada@Example.COM ")
    assert status == 201
    user = data["user"]
    assert user["email"] == "ada@example.com"
    assert (user["first_name"], user["last_name"], user["role"]) == ("Ada", "Lovelace", "user")
    status, me = await call(client, "get", "/api/auth/me")
    assert status == 200 and me["user"]["id"] == user["id"]


async def test_session_cookie_flags(client: Any) -> None:
    response = await client.post(
        "/api/auth/signup",
        json={"email": "a@b.co", "password": PASSWORD, "first_name": "A", "last_name": "B"},
        headers=HEADERS,
    )
    cookie = session_cookie(response)
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    hint = next(
        v for v in response.headers.getlist("Set-Cookie") if v.startswith("agency_signed_in=")
    )
    assert hint.startswith("agency_signed_in=1;") and "HttpOnly" not in hint
    assert "Max-Age" not in cookie and "Expires" not in cookie  # a browser-session cookie
    assert "Secure" not in cookie  # plain http in tests; https base_url turns it on


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"email": ""}, "Please fill in all fields"),
        ({"first_name": "  "}, "Please fill in all fields"),
        ({"last_name": ""}, "Please fill in all fields"),
        ({"password": ""}, "Please fill in all fields"),
        ({"confirm_password": "something else"}, "Passwords do not match"),
        (
            {"password": "12345", "confirm_password": "12345"},
            "Password must be at least 6 characters",
        ),
        (
            {"password": "x" * 129, "confirm_password": "x" * 129},
            "Password must be at most 128 characters",
        ),
        ({"email": "not-an-email"}, "Please enter a valid email address"),
    ],
)
async def test_sign_up_validation_messages(
    client: Any, change: dict[str, str], message: str
) -> None:
    status, data = await sign_up(client, **change)
    assert status == 400
    assert error_message(data) == message


async def test_sign_up_with_a_registered_email_in_any_case(client: Any) -> None:
    await sign_up(client, email="ada@example.com")
    await call(client, "post", "/api/auth/logout")
    status, data = await sign_up(client, email="ADA@example.com")
    assert status == 409
    assert error_message(data) == "This email is already registered."


async def test_log_in_messages(client: Any) -> None:
    await sign_up(client)
    await call(client, "post", "/api/auth/logout")
    for body in ({"email": "", "password": "x"}, {"email": "ada@example.com", "password": ""}):
        status, data = await call(client, "post", "/api/auth/login", body)
        assert (status, error_message(data)) == (400, "Please fill in all fields")
    for email, password in (
        ("ada@example.com", "wrong password"),
        ("nobody@example.com", PASSWORD),
    ):
        status, data = await call(
            client, "post", "/api/auth/login", {"email": email, "password": password}
        )
        assert status == 401
        assert error_message(data) == "Incorrect email or password. Please try again."


async def test_remember_me_sets_a_lasting_cookie(client: Any) -> None:
    await sign_up(client)
    response = await client.post(
        "/api/auth/login",
        json={"email": "ada@example.com", "password": PASSWORD, "remember": True},
        headers=HEADERS,
    )
    assert response.status_code == 200
    assert "Max-Age=2592000" in session_cookie(response)


async def test_log_out_really_ends_the_session(app: Any) -> None:
    client = app.test_client()
    response = await client.post(
        "/api/auth/signup",
        json={"email": "a@b.co", "password": PASSWORD, "first_name": "A", "last_name": "B"},
        headers=HEADERS,
    )
    stolen = session_cookie(response).split(";", 1)[0]
    logout = await client.post("/api/auth/logout", headers=HEADERS)
    assert logout.status_code == 204
    cleared = " ".join(logout.headers.getlist("Set-Cookie"))
    assert "agency_session=;" in cleared and "agency_signed_in=;" in cleared
    replay = app.test_client()
    response = await replay.get("/api/auth/me", headers={"Cookie": stolen})
    assert response.status_code == 401
    assert (await response.get_json())["error"]["message"] == "Please log in to continue."


async def test_me_when_signed_out(client: Any) -> None:
    status, data = await call(client, "get", "/api/auth/me")
    assert status == 401 and data["error"]["code"] == "unauthorized"


async def test_forgot_password_answers_the_same_and_mails_only_real_accounts(app: Any) -> None:
    client = app.test_client()
    await sign_up(client)
    known = await call(client, "post", "/api/auth/forgot-password", {"email": "ada@example.com"})
    unknown = await call(client, "post", "/api/auth/forgot-password", {"email": "eve@example.com"})
    assert known == unknown
    assert known[0] == 202
    await job_runner(app.app).drain()
    messages = await mail.OutboundMail.all()
    assert [m.to for m in messages] == ["ada@example.com"]
    assert "/reset-password?token=" in messages[0].text


async def reset_token_from_outbox(app: Any) -> str:
    await job_runner(app.app).drain()
    message = await mail.OutboundMail.all().order_by("-id").first()
    assert message is not None
    return message.text.split("/reset-password?token=")[1].split()[0]


async def test_reset_link_works_once_and_ends_every_session(app: Any) -> None:
    client = app.test_client()
    await sign_up(client)
    await call(client, "post", "/api/auth/forgot-password", {"email": "ada@example.com"})
    token = await reset_token_from_outbox(app)
    body = {"token": token, "password": "brand new pw", "confirm_password": "brand new pw"}
    assert (await call(client, "post", "/api/auth/reset-password", body))[0] == 200
    assert (await call(client, "get", "/api/auth/me"))[0] == 401  # signed out everywhere
    status, data = await call(client, "post", "/api/auth/reset-password", body)
    assert status == 400 and "invalid or has expired" in error_message(data)
    old = {"email": "ada@example.com", "password": PASSWORD}
    assert (await call(client, "post", "/api/auth/login", old))[0] == 401
    new = {"email": "ada@example.com", "password": "brand new pw"}
    assert (await call(client, "post", "/api/auth/login", new))[0] == 200


async def test_a_new_password_voids_every_other_reset_link(app: Any) -> None:
    client = app.test_client()
    await sign_up(client)
    tokens = []
    for _ in range(2):
        await call(client, "post", "/api/auth/forgot-password", {"email": "ada@example.com"})
        tokens.append(await reset_token_from_outbox(app))
    body = {"password": "brand new pw", "confirm_password": "brand new pw"}
    assert (await call(client, "post", "/api/auth/reset-password", {**body, "token": tokens[0]}))[
        0
    ] == 200
    status, data = await call(
        client, "post", "/api/auth/reset-password", {**body, "token": tokens[1]}
    )
    assert status == 400 and "invalid or has expired" in error_message(data)

    # A password changed in the settings voids the links mailed before it too.
    await call(
        client, "post", "/api/auth/login", {"email": "ada@example.com", "password": "brand new pw"}
    )
    await call(client, "post", "/api/auth/forgot-password", {"email": "ada@example.com"})
    tokens.append(await reset_token_from_outbox(app))
    change = {"current_password": "brand new pw", "new_password": "third pw 123"}
    assert (await call(client, "post", "/api/account/password", change))[0] == 200
    status, data = await call(
        client, "post", "/api/auth/reset-password", {**body, "token": tokens[2]}
    )
    assert status == 400 and "invalid or has expired" in error_message(data)


async def test_change_password_keeps_this_session_and_ends_the_others(app: Any) -> None:
    first, second = app.test_client(), app.test_client()
    await sign_up(first)
    await call(
        second, "post", "/api/auth/login", {"email": "ada@example.com", "password": PASSWORD}
    )
    wrong = {"current_password": "nope nope", "new_password": "another pw"}
    status, data = await call(first, "post", "/api/account/password", wrong)
    assert (status, error_message(data)) == (400, "Your current password is incorrect.")
    right = {"current_password": PASSWORD, "new_password": "another pw"}
    assert (await call(first, "post", "/api/account/password", right))[0] == 200
    assert (await call(first, "get", "/api/auth/me"))[0] == 200
    assert (await call(second, "get", "/api/auth/me"))[0] == 401


async def test_change_email_needs_password_and_a_free_address(client: Any) -> None:
    await sign_up(client, email="taken@example.com")
    await call(client, "post", "/api/auth/logout")
    await sign_up(client)
    status, data = await call(
        client,
        "post",
        "/api/account/email",
        {"new_email": "new@example.com", "current_password": "bad pass"},
    )
    assert (status, error_message(data)) == (400, "Your current password is incorrect.")
    status, data = await call(
        client,
        "post",
        "/api/account/email",
        {"new_email": "Taken@example.com", "current_password": PASSWORD},
    )
    assert (status, error_message(data)) == (409, "This email is already registered.")
    status, data = await call(
        client,
        "post",
        "/api/account/email",
        {"new_email": "New@Example.com", "current_password": PASSWORD},
    )
    assert status == 200 and data["user"]["email"] == "new@example.com"


async def test_profile_update_and_avatar_check(client: Any) -> None:
    await sign_up(client)
    status, data = await call(
        client,
        "patch",
        "/api/account/profile",
        {"first_name": "Augusta", "last_name": "King", "avatar_url": "javascript:alert(1)"},
    )
    assert status == 400 and data["error"]["fields"] == {
        "avatar_url": "The avatar must be an http:// or https:// image address."
    }
    status, data = await call(
        client,
        "patch",
        "/api/account/profile",
        {"first_name": "Augusta", "last_name": "King", "avatar_url": "https://example.com/a.png"},
    )
    assert status == 200
    assert data["user"]["first_name"] == "Augusta"
    assert data["user"]["avatar_url"] == "https://example.com/a.png"


async def test_export_holds_everything_about_the_user(client: Any) -> None:
    await sign_up(client)
    response = await client.get("/api/account/export", headers=HEADERS)
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    data = await response.get_json()
    assert data["account"]["email"] == "ada@example.com"
    assert data["profile"]["first_name"] == "Ada"
    assert len(data["sessions"]) == 1
    assert "password" not in str(data).lower().replace("password_reset", "")


async def test_delete_account_needs_the_password_then_removes_everything(client: Any) -> None:
    await sign_up(client)
    status, data = await call(client, "post", "/api/account/delete", {"current_password": "nope"})
    assert (status, error_message(data)) == (400, "Your current password is incorrect.")
    assert (await call(client, "post", "/api/account/delete", {"current_password": PASSWORD}))[
        0
    ] == 204
    assert (await call(client, "get", "/api/auth/me"))[0] == 401
    assert (await sign_up(client))[0] == 201  # the address is free again


@pytest.mark.parametrize("path", ["/api/account/profile", "/api/account/export"])
async def test_account_endpoints_need_a_session(client: Any, path: str) -> None:
    method = "patch" if path.endswith("profile") else "get"
    status, _data = await call(client, method, path, {"first_name": "x", "last_name": "y"})
    assert status == 401


async def test_sign_up_without_csrf_header_is_refused(client: Any) -> None:
    response = await client.post("/api/auth/signup", json={"email": "a@b.co"})
    assert response.status_code == 403


async def test_failed_log_ins_are_limited_per_email(client: Any) -> None:
    await sign_up(client)
    await call(client, "post", "/api/auth/logout")
    bad = {"email": "ada@example.com", "password": "wrong password"}
    for _ in range(10):
        assert (await call(client, "post", "/api/auth/login", bad))[0] == 401
    response = await client.post("/api/auth/login", json=bad, headers=HEADERS)
    assert response.status_code == 429
    assert 0 < int(response.headers["Retry-After"]) <= 900
    message = (await response.get_json())["error"]["message"]
    assert message.startswith("Too many attempts. Please try again in ")
    # And what the owner can do instead of waiting.
    waited, _, advice = message.partition(". To sign in now, ")
    assert waited.endswith((" minutes", " minute")) and "'Forgot password?'" in advice


async def test_wrong_json_types_are_a_400_not_a_500(client: Any) -> None:
    for body in ([], "text", {"email": 5, "password": None}, {"remember": "maybe"}):
        status, data = await call(client, "post", "/api/auth/login", body)
        assert status == 400, body
        assert data["error"]["code"] == "validation_error"


async def test_forgot_password_is_limited_per_address(client: Any) -> None:
    for _ in range(5):
        status, _ = await call(client, "post", "/api/auth/forgot-password", {"email": "x@y.co"})
        assert status == 202
    status, data = await call(client, "post", "/api/auth/forgot-password", {"email": "x@y.co"})
    assert status == 429 and data["error"]["code"] == "rate_limited"


async def test_sign_up_is_limited_per_address(client: Any) -> None:
    for n in range(10):
        assert (await sign_up(client, email=f"user{n}@example.com"))[0] == 201
    status, data = await sign_up(client, email="one-too-many@example.com")
    assert status == 429
    assert error_message(data).startswith("Too many attempts. Please try again in ")


async def test_me_is_one_query_and_an_expired_session_is_signed_out(
    client: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Every signed-in request resolves its session: the first time one round trip for the
    session, the user and the profile together (beside the accounts' revision read); after that
    only the revision, while it stands. A session past its expiry counts as none."""
    from datetime import UTC, datetime, timedelta

    from agency.modules.auth.models import Session

    status, data = await sign_up(client, email="grace@example.com")
    assert status == 201
    # A first request (on PostgreSQL it restores the revision row the test's TRUNCATE took),
    # then a new session: nothing of it is cached yet.
    assert (await call(client, "get", "/api/auth/me"))[0] == 200
    await log_in(client, "grace@example.com")
    for expected in (["auth_revision", "auth_session"], ["auth_revision"]):
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger="tortoise.db_client"):
            status, me = await call(client, "get", "/api/auth/me")
        assert status == 200 and me["user"] == data["user"]
        queries = [
            r.message
            for r in caplog.records
            if r.name == "tortoise.db_client" and "auth_" in r.message
        ]
        assert [next(t for t in expected if t in q) for q in queries] == expected, queries

    await Session.all().update(expires_at=datetime.now(UTC) - timedelta(seconds=1))
    assert (await call(client, "get", "/api/auth/me"))[0] == 401
