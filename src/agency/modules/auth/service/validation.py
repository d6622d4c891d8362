"""The rules for what people type: e-mail addresses, new passwords, required fields."""

from __future__ import annotations

from agency.core import text
from agency.core.errors import ValidationFailed

MSG_FILL_ALL = "Please fill in all fields"
MSG_PASSWORDS_DIFFER = "Passwords do not match"
MSG_PASSWORD_SHORT = "Password must be at least 6 characters"
MSG_PASSWORD_LONG = "Password must be at most 128 characters"
MSG_EMAIL_INVALID = "Please enter a valid email address"

PASSWORD_MIN, PASSWORD_MAX = 6, 128


def normalise_email(raw: str) -> str:
    return raw.strip().lower()


def valid_email(email: str) -> bool:
    """The kernel's one e-mail rule (`agency.core.text.valid_email`), shared with the leads:
    a dot-atom local part without ? & # % or quotes, a host name with a top-level domain,
    254 characters at most."""
    return text.valid_email(email)


def password_problem(password: str) -> str | None:
    if len(password) < PASSWORD_MIN:
        return MSG_PASSWORD_SHORT
    if len(password) > PASSWORD_MAX:
        return MSG_PASSWORD_LONG
    return None


def check_new_password(password: str, confirm: str | None, field: str = "password") -> None:
    """A new password: the confirmation matches (when one was asked for), and its length."""
    if confirm is not None and confirm != password:
        raise ValidationFailed(
            MSG_PASSWORDS_DIFFER, fields={"confirm_password": MSG_PASSWORDS_DIFFER}
        )
    problem = password_problem(password)
    if problem:
        raise ValidationFailed(problem, fields={field: problem})
