"""The article manager's test set-up: an app on the fake OpenAI server, an admin, a client."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from agency.app import create_app
from agency.modules.auth.service import admin as auth_admin
from agency.net import ai
from tests.auth.helpers import call, sign_up
from tests.conftest import make_settings
from tests.fakes.openai_server import DEFAULT_API_KEY, FakeOpenAI, run_fake_openai

ADMIN_EMAIL = "ada@example.com"


@pytest.fixture(scope="session")
def openai_fake() -> Iterator[FakeOpenAI]:
    with run_fake_openai() as server:
        yield server


@pytest.fixture
def fake_ai(openai_fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> FakeOpenAI:
    openai_fake.reset()
    monkeypatch.setattr(ai, "BACKOFF_FIRST", 0.01)
    return openai_fake


def ai_settings(fake: FakeOpenAI, **extra: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "ai_api_key": DEFAULT_API_KEY,
        "ai_base_url": fake.api_base,
        "ai_timeout": 2.0,
        "ai_max_retries": 1,
    }
    values.update(extra)
    return values


@pytest.fixture
async def site(tmp_path: Path, database_url: str, fake_ai: FakeOpenAI) -> AsyncIterator[Any]:
    app = create_app(make_settings(tmp_path, database_url, **ai_settings(fake_ai)))
    async with app.test_app() as test_app:
        yield test_app


@pytest.fixture
async def admin(site: Any) -> Any:
    """A test client signed in as an admin (user id in `client.admin_id`)."""
    client = site.test_client()
    status, data = await sign_up(client, ADMIN_EMAIL)
    assert status in (200, 201), data
    await auth_admin.set_role(ADMIN_EMAIL, "admin")
    _, me = await call(client, "get", "/api/auth/me")
    client.admin_id = me["user"]["id"]
    return client
