"""Accounts: users, their profiles, sessions and password resets. Private to the auth module."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

ROLE_USER, ROLE_ADMIN = "user", "admin"


class User(Model):
    id = fields.IntField(primary_key=True)
    # Stored normalised (trimmed, lower-case), so uniqueness holds regardless of case.
    email = fields.CharField(max_length=254, unique=True)
    password_hash = fields.CharField(max_length=255)
    role = fields.CharField(max_length=16, default=ROLE_USER)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "auth_user"


class Profile(Model):
    """A user's public details, keyed by the user's id (as the spec's profiles table is)."""

    id = fields.IntField(primary_key=True, generated=False)
    first_name = fields.CharField(max_length=100, default="")
    last_name = fields.CharField(max_length=100, default="")
    avatar_url = fields.CharField(max_length=2048, null=True)
    # A short introduction shown under the articles an admin writes (the blog's author block).
    bio = fields.CharField(max_length=280, default="")
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "auth_profile"


class Session(Model):
    """A signed-in browser. The cookie holds a random token, of which only the SHA-256 is stored."""

    id = fields.CharField(max_length=64, primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField(
        "models.User", related_name="sessions", on_delete=fields.CASCADE
    )
    remember = fields.BooleanField(default=False)
    created_at = fields.DatetimeField(auto_now_add=True)
    last_seen_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField(db_index=True)
    user_agent = fields.CharField(max_length=255, default="")
    ip = fields.CharField(max_length=64, default="")

    class Meta:
        table = "auth_session"


class PasswordReset(Model):
    """A single-use reset link. Only the SHA-256 of its token is stored."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField(
        "models.User", related_name="password_resets", on_delete=fields.CASCADE
    )
    token_hash = fields.CharField(max_length=64, unique=True)
    expires_at = fields.DatetimeField()
    used_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "auth_password_reset"
