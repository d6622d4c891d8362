"""The rules for what people type: e-mail addresses, new passwords, required fields."""

from __future__ import annotations

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
    """A deliberately loose check (the browser checks the format too): one @, no spaces,
    a dot in the domain, within RFC 5321's 254 characters."""
    if len(email) > 254 or any(ch.isspace() for ch in email) or email.count("@") != 1:
        return False
    local, domain = email.split("@")
    labels = domain.split(".")
    return bool(local) and len(labels) >= 2 and all(labels) and len(local) <= 64


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
