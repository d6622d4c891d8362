"""Request and response shapes of the auth module, and the Account other modules receive."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, Field

from agency.core.text import EMAIL_MAX, Line, Secret

# The columns' lengths (auth_user.email, auth_profile names and avatar); the spec's messages
# are checked in the service. A password is only hashed: its bound just stops abuse.
_EMAIL = Field(default="", max_length=EMAIL_MAX)
_PASSWORD = Field(default="", max_length=1024)
_NAME = Field(default="", max_length=100)
_CONFIRM = Field(default=None, max_length=1024)
BIO_MAX = 280


@dataclass(frozen=True)
class Account:
    """A signed-in user as other modules see it."""

    id: int
    email: str
    role: str
    first_name: str
    last_name: str
    avatar_url: str | None
    created_at: datetime
    # A short introduction (the blog's author block); empty when the user wrote none.
    bio: str = ""

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class SignUpIn(BaseModel):
    email: Line = _EMAIL
    password: Secret = _PASSWORD
    confirm_password: Secret | None = _CONFIRM
    first_name: Line = _NAME
    last_name: Line = _NAME


class LogInIn(BaseModel):
    email: Line = _EMAIL
    password: Secret = _PASSWORD
    remember: bool = False


class ForgotPasswordIn(BaseModel):
    email: Line = _EMAIL


class ResetPasswordIn(BaseModel):
    token: Line = Field(default="", max_length=200)
    password: Secret = _PASSWORD
    confirm_password: Secret | None = _CONFIRM


class ProfileIn(BaseModel):
    first_name: Line = _NAME
    last_name: Line = _NAME
    avatar_url: Line | None = Field(default=None, max_length=2048)
    # Absent (None): the bio stays as it is.
    bio: Line | None = Field(default=None, max_length=BIO_MAX)


class PasswordChangeIn(BaseModel):
    current_password: Secret = _PASSWORD
    new_password: Secret = _PASSWORD
    confirm_password: Secret | None = _CONFIRM


class EmailChangeIn(BaseModel):
    new_email: Line = _EMAIL
    current_password: Secret = _PASSWORD


class DeleteAccountIn(BaseModel):
    current_password: Secret = _PASSWORD


class UserOut(BaseModel):
    id: int
    email: str
    first_name: str
    last_name: str
    avatar_url: str | None
    role: str
    created_at: datetime
    bio: str = Field(
        default="", description="A short introduction, shown under the articles an admin writes."
    )

    @classmethod
    def of(cls, account: Account) -> UserOut:
        return cls(
            id=account.id,
            email=account.email,
            first_name=account.first_name,
            last_name=account.last_name,
            avatar_url=account.avatar_url,
            role=account.role,
            created_at=account.created_at,
            bio=account.bio,
        )


class UserEnvelope(BaseModel):
    user: UserOut


class MessageOut(BaseModel):
    message: str
