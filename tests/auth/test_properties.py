"""Property tests: e-mail normalisation, password rules, reset-token lifecycle, no 500s."""

from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agency.core.errors import ValidationFailed
from agency.modules.auth.models import PasswordReset
from agency.modules.auth.service import accounts, resets, validation
from tests.helpers.http import HEADERS

emails = st.emails()
ADDRESSES = itertools.count()
fixture_ok = settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=30)


@given(st.text(max_size=300))
def test_normalise_email_is_idempotent_and_trimmed(raw: str) -> None:
    once = validation.normalise_email(raw)
    assert validation.normalise_email(once) == once
    assert once == once.strip()


@given(emails, st.sampled_from(["", " ", "\t", "  \n"]))
def test_valid_addresses_survive_case_and_whitespace(email: str, pad: str) -> None:
    normal = validation.normalise_email(pad + email.upper() + pad)
    assert normal == email.lower()
    local, host = normal.split("@")
    # The rule leaves out the dot-atom characters that mean something in a mailto: URL.
    if len(normal) <= 254 and len(local) <= 64 and "." in host and not set(local) & set("?&#%"):
        assert validation.valid_email(normal)


@given(st.text(max_size=60).filter(lambda s: "@" not in s))
def test_no_at_sign_is_never_valid(text: str) -> None:
    assert not validation.valid_email(text)


@given(st.text(max_size=200))
def test_password_rule_is_length_only(password: str) -> None:
    problem = validation.password_problem(password)
    if len(password) < 6:
        assert problem == "Password must be at least 6 characters"
    elif len(password) > 128:
        assert problem == "Password must be at most 128 characters"
    else:
        assert problem is None


async def _user(email: str) -> int:
    account = await accounts.create_user(email, "a fine password", "A", "B")
    return account.id


@fixture_ok
@given(token=st.text(min_size=1, max_size=80))
async def test_made_up_tokens_never_reset_anything(orm: str, token: str) -> None:
    # A fresh client address per example, so the per-address limit does not answer first.
    with pytest.raises(ValidationFailed):
        await resets.reset_password(
            token=token,
            password="new password",
            confirm_password=None,
            client_ip=f"10.0.0.{next(ADDRESSES)}",
        )


async def test_token_lifecycle_once_never_after_expiry_never_for_another_user(orm: str) -> None:
    ada, bob = await _user("ada@example.com"), await _user("bob@example.com")
    token = await resets.issue_reset_token(ada)
    await resets.reset_password(
        token=token, password="ada new pw", confirm_password=None, client_ip="1.1.1.1"
    )
    with pytest.raises(ValidationFailed):  # a second use
        await resets.reset_password(
            token=token, password="again pw", confirm_password=None, client_ip="1.1.1.1"
        )
    assert (
        await accounts.authenticate(
            email="ada@example.com", password="ada new pw", client_ip="1.1.1.1"
        )
    ).id == ada
    # Bob's password is untouched by Ada's token.
    assert (
        await accounts.authenticate(
            email="bob@example.com", password="a fine password", client_ip="1.1.1.1"
        )
    ).id == bob
    expired = await resets.issue_reset_token(bob)
    await PasswordReset.filter(user_id=bob).update(
        expires_at=datetime.now(UTC) - timedelta(seconds=1)
    )
    with pytest.raises(ValidationFailed):
        await resets.reset_password(
            token=expired, password="bob new pw", confirm_password=None, client_ip="1.1.1.1"
        )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=10), children, max_size=3)
    ),
    max_leaves=8,
)
auth_bodies = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "email": json_values | emails,
            "password": json_values | st.text(max_size=200),
            "confirm_password": json_values,
            "first_name": json_values,
            "last_name": json_values,
            "remember": json_values,
            "token": json_values,
        },
    ),
)
PATHS = [
    "/api/auth/signup",
    "/api/auth/login",
    "/api/auth/forgot-password",
    "/api/auth/reset-password",
]


@fixture_ok
@given(path=st.sampled_from(PATHS), body=auth_bodies)
async def test_no_input_gives_a_500(client: Any, path: str, body: Any) -> None:
    response = await client.post(
        path, data=json.dumps(body), headers={**HEADERS, "Content-Type": "application/json"}
    )
    assert response.status_code < 500, await response.get_data()
    if response.status_code >= 400:
        data = await response.get_json()
        assert set(data["error"]) <= {"code", "message", "fields"}
