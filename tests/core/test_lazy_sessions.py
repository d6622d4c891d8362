"""Quart's cookie session costs nothing without its cookie, and works as before with it
(nothing of ours uses it, but a route that did would see no difference)."""

from __future__ import annotations

from quart import Quart, session
from quart.sessions import SecureCookieSessionInterface, SessionInterface

from agency.core.web import LazyCookieSessions


def session_app(interface: SessionInterface | None = None) -> Quart:
    app = Quart("sessions")
    app.secret_key = "test-secret-key-for-sessions"
    app.session_interface = interface or LazyCookieSessions()

    @app.get("/read")
    async def read() -> dict[str, object]:
        return {"value": session.get("value")}

    @app.get("/write")
    async def write() -> dict[str, object]:
        session["value"] = 42
        return {"ok": True}

    @app.get("/nothing")
    async def nothing() -> dict[str, object]:
        return {"ok": True}

    return app


async def test_the_same_answers_as_quarts_own_interface() -> None:
    for path in ("/nothing", "/read", "/write"):
        ours = await session_app().test_client().get(path)
        stock = await session_app(SecureCookieSessionInterface()).test_client().get(path)
        assert (await ours.get_json()) == (await stock.get_json())
        for header in ("Vary", "Set-Cookie"):
            assert (header in ours.headers) == (header in stock.headers), (path, header)
    assert "Set-Cookie" not in (await session_app().test_client().get("/nothing")).headers


async def test_a_written_session_is_read_back_from_its_cookie() -> None:
    client = session_app().test_client()
    written = await client.get("/write")
    assert written.headers["Set-Cookie"].startswith("session=")
    read = await client.get("/read")
    assert (await read.get_json()) == {"value": 42}
