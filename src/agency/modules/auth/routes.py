"""Auth and account endpoints. Thin: each handler makes one service call."""

from __future__ import annotations

from datetime import timedelta
from functools import lru_cache
from typing import Any, cast

from quart import Blueprint, Quart, Response, g, jsonify
from quart.blueprints import BlueprintSetupState
from quart_auth import current_user, logout_user
from quart_schema import (
    document_response,
    validate_querystring,
    validate_request,
    validate_response,
)

from agency.core.web import app_settings, openapi
from agency.core.web.answers import json_response, model_body
from agency.modules.audit import api as audit_api
from agency.modules.auth.schemas import (
    Account,
    DeleteAccountIn,
    EmailChangeIn,
    ForgotPasswordIn,
    LogInIn,
    MessageOut,
    PasswordChangeIn,
    ProfileIn,
    ResetPasswordIn,
    SignUpIn,
    UserEnvelope,
    UserOut,
)
from agency.modules.auth.service import accounts, profile, resets, sessions, user_data
from agency.modules.auth.web import (
    SessionAuth,
    SessionUser,
    admin_required,
    client_ip,
    login_required,
    require_account,
    sign_in,
)

blueprint = Blueprint("auth", __name__)
COOKIE_NAME = "agency_session"


@blueprint.record_once
def install_sessions(state: BlueprintSetupState) -> None:
    """Session cookies: HttpOnly, SameSite=Lax (Strict would drop the cookie when the payment
    provider sends the buyer back), Secure when the site is served over https."""
    app = cast(Quart, state.app)
    settings = app_settings(app)
    SessionAuth(
        app,
        cookie_name=COOKIE_NAME,
        cookie_http_only=True,
        cookie_samesite="Lax",
        cookie_secure=settings.served_over_https,
        duration=int(timedelta(days=sessions.REMEMBER_DAYS).total_seconds()),
        user_class=SessionUser,
    )


@blueprint.post("/api/auth/signup")
@validate_request(SignUpIn)
@validate_response(UserEnvelope, 201)
async def post_signup(data: SignUpIn) -> tuple[UserEnvelope, int]:
    """Create an account (user and profile) and sign in."""
    account = await accounts.sign_up(
        email=data.email,
        password=data.password,
        confirm_password=data.confirm_password,
        first_name=data.first_name,
        last_name=data.last_name,
        client_ip=client_ip(),
    )
    await sign_in(account, remember=False)
    return UserEnvelope(user=UserOut.of(account)), 201


@blueprint.post("/api/auth/login")
@validate_request(LogInIn)
@validate_response(UserEnvelope, 200)
async def post_login(data: LogInIn) -> UserEnvelope:
    """Sign in; `remember` keeps the session for 30 days, else until the browser closes."""
    account = await accounts.authenticate(
        email=data.email, password=data.password, client_ip=client_ip()
    )
    await sign_in(account, remember=data.remember)
    return UserEnvelope(user=UserOut.of(account))


@blueprint.post("/api/auth/logout")
@openapi.answers(204, "Signed out.")
async def post_logout() -> Response:
    """End this session."""
    if current_user.auth_id:
        await sessions.end_session(current_user.auth_id)
    logout_user()
    g.session_hint = "clear"
    return Response(status=204)


@lru_cache(maxsize=10_000)
def _me_body(account: Account) -> bytes:
    # Keyed on the account's value (a frozen dataclass): a changed profile is another key.
    return model_body(UserEnvelope(user=UserOut.of(account)))


@blueprint.get("/api/auth/me")
@document_response(UserEnvelope, 200)
async def get_me() -> Response:
    """The signed-in user with profile and role; 401 when signed out."""
    return json_response(_me_body(await require_account()))


@blueprint.post("/api/auth/forgot-password")
@validate_request(ForgotPasswordIn)
@validate_response(MessageOut, 202)
async def post_forgot_password(data: ForgotPasswordIn) -> tuple[MessageOut, int]:
    """E-mail a reset link; the answer is the same whether the e-mail has an account or not."""
    settings = app_settings()
    message = await resets.request_password_reset(
        email=data.email, client_ip=client_ip(), public_url=settings.public_url
    )
    return MessageOut(message=message), 202


@blueprint.post("/api/auth/reset-password")
@validate_request(ResetPasswordIn)
@validate_response(MessageOut, 200)
async def post_reset_password(data: ResetPasswordIn) -> MessageOut:
    """Set a new password with a reset link's token (once, within the hour)."""
    await resets.reset_password(
        token=data.token,
        password=data.password,
        confirm_password=data.confirm_password,
        client_ip=client_ip(),
    )
    return MessageOut(message=resets.MSG_RESET_DONE)


@blueprint.patch("/api/account/profile")
@login_required
@validate_request(ProfileIn)
@validate_response(UserEnvelope, 200)
async def patch_profile(data: ProfileIn) -> UserEnvelope:
    """Change first name, last name, avatar image address and (when given) the short bio shown
    under the articles an admin writes."""
    account = await require_account()
    updated = await profile.update_profile(
        account.id,
        first_name=data.first_name,
        last_name=data.last_name,
        avatar_url=data.avatar_url,
        bio=data.bio,
    )
    return UserEnvelope(user=UserOut.of(updated))


@blueprint.post("/api/account/password")
@login_required
@validate_request(PasswordChangeIn)
@validate_response(MessageOut, 200)
async def post_password(data: PasswordChangeIn) -> MessageOut:
    """Change the password; every other session ends."""
    account = await require_account()
    await profile.change_password(
        account.id,
        current_password=data.current_password,
        new_password=data.new_password,
        confirm_password=data.confirm_password,
        keep_token=current_user.auth_id,
    )
    return MessageOut(message=profile.MSG_PASSWORD_CHANGED)


@blueprint.post("/api/account/email")
@login_required
@validate_request(EmailChangeIn)
@validate_response(UserEnvelope, 200)
async def post_email(data: EmailChangeIn) -> UserEnvelope:
    """Change the e-mail address (needs the current password)."""
    account = await require_account()
    updated = await profile.change_email(
        account.id, new_email=data.new_email, current_password=data.current_password
    )
    return UserEnvelope(user=UserOut.of(updated))


@blueprint.get("/api/account/export")
@login_required
@openapi.answers(200, "Everything held about the user, as a JSON download.", "application/json")
async def get_export() -> Response:
    """Download everything we hold about the signed-in user, as JSON."""
    account = await require_account()
    data: dict[str, Any] = await user_data.export_data(account.id)
    response = jsonify(data)
    response.headers["Content-Disposition"] = 'attachment; filename="my-agency-data.json"'
    return response


@blueprint.post("/api/account/delete")
@login_required
@validate_request(DeleteAccountIn)
@openapi.answers(204, "The account is deleted and signed out.")
async def post_delete_account(data: DeleteAccountIn) -> Response:
    """Delete the account and what other modules hold about it (needs the password)."""
    account = await require_account()
    await user_data.delete_account(account.id, current_password=data.current_password)
    logout_user()
    g.session_hint = "clear"
    return Response(status=204)


# The audit log's page. The audit module sits below auth (role changes are recorded in it), so
# it cannot use the admin guard: its admin route is served here, one call to `audit.api`.
@blueprint.get("/api/admin/audit")
@admin_required
@validate_querystring(audit_api.AuditQuery)
@validate_response(audit_api.AuditPage, 200)
async def get_admin_audit(query_args: audit_api.AuditQuery) -> audit_api.AuditPage:
    """The audit log of admin actions, newest first, a page at a time (admins only): who
    (`actor_label`: the admin's e-mail, or `command line`), when, what, and the changed fields
    before and after. Filters: `action`, `actor` (part of the e-mail, or `command line`),
    `target_type` and `target_id`, `since` and `until` (UTC days, both inclusive). Paging:
    `limit` (1 to 200, default 50) and `before_id` = the answer's `next_before_id`."""
    return await audit_api.list_entries(query_args.to_filter())
