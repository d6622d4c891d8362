"""The article manager's test set-up: an app on the fake OpenAI server, an admin, a client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agency.net import ai
from agency.settings import Settings
from tests.conftest import make_settings
from tests.fakes.openai_server import DEFAULT_API_KEY, FakeOpenAI, run_fake_openai


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
def app_settings(tmp_path: Path, database_url: str, fake_ai: FakeOpenAI) -> Settings:
    """The settings of the `app` of these tests (tests/conftest.py): the fake OpenAI."""
    return make_settings(tmp_path, database_url, **ai_settings(fake_ai))
