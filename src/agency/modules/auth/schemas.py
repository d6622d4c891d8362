"""Request and response shapes of the auth module, and the Account other modules receive."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, Field

# Generous bounds: the spec's messages are checked in the service; these only stop abuse.
_EMAIL = Field(default="", max_length=320)
_PASSWORD = Field(default="", max_length=1024)
_NAME = Field(default="", max_length=200)


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

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class SignUpIn(BaseModel):
    email: str = _EMAIL
    password: str = _PASSWORD
    confirm_password: str | None = Field(default=None, max_length=1024)
    first_name: str = _NAME
    last_name: str = _NAME


class LogInIn(BaseModel):
    email: str = _EMAIL
    password: str = _PASSWORD
    remember: bool = False


class ForgotPasswordIn(BaseModel):
    email: str = _EMAIL


class ResetPasswordIn(BaseModel):
    token: str = Field(default="", max_length=200)
    password: str = _PASSWORD
    confirm_password: str | None = Field(default=None, max_length=1024)


class ProfileIn(BaseModel):
    first_name: str = _NAME
    last_name: str = _NAME
    avatar_url: str | None = Field(default=None, max_length=2048)


class PasswordChangeIn(BaseModel):
    current_password: str = _PASSWORD
    new_password: str = _PASSWORD
    confirm_password: str | None = Field(default=None, max_length=1024)


class EmailChangeIn(BaseModel):
    new_email: str = _EMAIL
    current_password: str = _PASSWORD


class DeleteAccountIn(BaseModel):
    current_password: str = _PASSWORD


class UserOut(BaseModel):
    id: int
    email: str
    first_name: str
    last_name: str
    avatar_url: str | None
    role: str
    created_at: datetime

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
        )


class UserEnvelope(BaseModel):
    user: UserOut


class MessageOut(BaseModel):
    message: str
