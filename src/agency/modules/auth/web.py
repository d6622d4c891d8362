"""What other modules' routes may use of accounts: who is signed in, guards, signing in.
Quart-bound; plain functions and data are in `api.py`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from quart import Response, g, has_request_context, request
from quart_auth import Action, AuthUser, QuartAuth, current_user, login_user

from agency.core.errors import Forbidden, Unauthorized
from agency.core.web.request_layer import current_client_ip
from agency.modules.audit import api as audit_api
from agency.modules.auth.schemas import Account
from agency.modules.auth.service import accounts, sessions
from agency.modules.auth.service.session_cache import SessionCache

__all__ = [
    "HINT_COOKIE",
    "SessionAuth",
    "SessionUser",
    "admin_required",
    "audit_actor",
    "client_ip",
    "current_account",
    "login_required",
    "require_account",
    "sign_in",
]

P = ParamSpec("P")
T = TypeVar("T")
MSG_ADMINS_ONLY = "Only admins can do this."


# Readable by scripts and holding no secret: it only tells the web UI that asking
# /api/auth/me is worth it, so anonymous visitors make no API call at all.
HINT_COOKIE = "agency_signed_in"


class SessionAuth(QuartAuth):
    """quart-auth, minus its work on requests that never asked who is signed in: its
    after-request hook resolved the user (a cookie signature check) on every API request, only
    to find nothing to write. Signing in or out, or reading `current_user`, sets the request's
    user attribute, and then the hook runs as before, and writes the hint cookie too.

    The user it resolves holds the raw cookie, checked (signature, session row) only when a
    route asks who is signed in, and then through this process's `SessionCache`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.sessions = SessionCache()
        super().__init__(*args, **kwargs)

    def resolve_user(self) -> AuthUser:
        if self.mode != "cookie" or not has_request_context():
            return super().resolve_user()
        cookie = request.cookies.get(self.cookie_name or "")
        return SessionUser(None, cookie=cookie or None, auth=self)

    async def after_request(self, response: Response) -> Response:
        user = getattr(g, self.attribute_name, None)
        if user is None or (user.action is Action.PASS and "session_hint" not in g):
            return response  # nobody signed in or out: no cookie to write
        _write_session_hint(response, secure=bool(self.cookie_secure))
        return await super().after_request(response)


def _write_session_hint(response: Response, *, secure: bool) -> None:
    """Sets or clears the hint cookie when this request signed someone in or out."""
    hint = g.pop("session_hint", None)
    if hint == "clear":
        response.delete_cookie(HINT_COOKIE, samesite="Lax", secure=secure)
    elif hint is not None:
        max_age = int(timedelta(days=sessions.REMEMBER_DAYS).total_seconds())
        response.set_cookie(
            HINT_COOKIE,
            "1",
            max_age=max_age if hint == "remember" else None,
            samesite="Lax",
            secure=secure,
            httponly=False,
        )


class SessionUser(AuthUser):
    """quart-auth's user, backed by a session row: logging out, a password change or a reset
    really ends a session, and every server process agrees."""

    def __init__(
        self,
        auth_id: str | None,
        action: Action = Action.PASS,
        *,
        cookie: str | None = None,
        auth: SessionAuth | None = None,
    ) -> None:
        super().__init__(auth_id, action)
        # A cookie as the browser sent it: its signature is checked when first needed.
        self._cookie = cookie
        self._auth = auth
        self._checked = cookie is None
        self._account: Account | None = None
        self._resolved = False

    @property
    def auth_id(self) -> str | None:
        if not self._checked and self._cookie is not None and self._auth is not None:
            self._checked = True
            self._auth_id = self._auth.load_token(self._cookie)
        return self._auth_id

    async def account(self) -> Account | None:
        """The session's account (asked once per request), or None."""
        if not self._resolved:
            if self._cookie is not None and self._auth is not None:
                self._account = await self._auth.sessions.account(self._cookie, self._load)
            else:
                auth_id = self.auth_id
                self._account = await sessions.session_account(auth_id) if auth_id else None
            self._resolved = True
        return self._account

    async def _load(self) -> tuple[Account, float] | None:
        auth_id = self.auth_id
        return await sessions.session_entry(auth_id) if auth_id else None

    @property
    async def is_authenticated(self) -> bool:
        return await self.account() is not None


def client_ip() -> str:
    """The client's address as the core worked it out (trusted proxies honoured)."""
    return current_client_ip() or request.remote_addr or "unknown"


async def sign_in(account: Account, *, remember: bool = False) -> None:
    """Start a session for this request's browser (the cookie is set on the response)."""
    token = await sessions.start_session(
        account.id,
        remember=remember,
        user_agent=request.headers.get("User-Agent", ""),
        ip=client_ip(),
    )
    login_user(SessionUser(token), remember=remember)
    g.session_hint = "remember" if remember else "session"
    g.account = account


async def current_account() -> Account | None:
    """The signed-in account of this request, or None."""
    if "account" not in g:
        user = current_user._get_current_object()  # type: ignore[attr-defined]
        g.account = await user.account() if isinstance(user, SessionUser) else None
    account: Account | None = g.account
    return account


async def require_account() -> Account:
    account = await current_account()
    if account is None:
        raise Unauthorized(accounts.MSG_NOT_SIGNED_IN)
    return account


async def audit_actor() -> audit_api.Actor:
    """The signed-in account as the audit log's actor of what this request changes (401 when
    signed out; admin routes have checked the role already)."""
    account = await require_account()
    return audit_api.Actor(user_id=account.id, email=account.email)


def login_required(handler: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """401 in the API's error shape unless someone is signed in."""

    @wraps(handler)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        await require_account()
        return await handler(*args, **kwargs)

    return wrapper


def admin_required(handler: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """401 when signed out, 403 for anyone but an admin, whatever the web UI shows."""

    @wraps(handler)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        account = await require_account()
        if not account.is_admin:
            raise Forbidden(MSG_ADMINS_ONLY)
        return await handler(*args, **kwargs)

    return wrapper
