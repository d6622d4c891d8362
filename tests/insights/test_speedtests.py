"""The speed test through the HTTP API: each page's validation, the job to done or failed with
the spec's messages, reuse, limits, the address rule, the lead and the report e-mail."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agency.app import create_app
from tests.auth.helpers import HEADERS, call
from tests.conftest import make_settings


@pytest.fixture
async def site(tmp_path: Path, database_url: str) -> Any:
    settings = make_settings(
        tmp_path, database_url, speedtest_unsafe_allow_private_targets=True
    )
    app = create_app(settings)
    async with app.test_app() as test_app:
        yield test_app


async def test_a_queued_test_is_read_back_and_an_unknown_id_is_404(site: Any) -> None:
    client = site.test_client()
    status, data = await call(
        client,
        "post",
        "/api/speed-tests",
        {"url": "https://www.Example.com/", "email": "ann@example.com", "source": "speed-test"},
    )
    assert status == 202, data
    assert data["status"] == "queued" and data["domain"] == "example.com"
    assert data["strategy"] == "mobile" and data["result"] is None and data["error"] is None
    status, again = await call(client, "get", f"/api/speed-tests/{data['id']}")
    assert status == 200 and again == data
    status, _ = await call(client, "get", "/api/speed-tests/" + "0" * 32)
    assert status == 404
    status, _ = await call(client, "get", "/api/speed-tests/nothing")
    assert status == 404
    assert HEADERS
