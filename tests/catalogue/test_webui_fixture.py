"""The web UI's tests render plans and prices from `webui/test/fixtures/catalogue.json`: what
`GET /api/catalogue` answers for `config/catalogue.toml`, written by
`scripts/dump_test_catalogue.py` with the catalogue module's own loading, seeding and
serialising code. A change to the data file or to the catalogue's schema fails here until the
committed fixture is regenerated, so the Vitest suite cannot test against a stale catalogue."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "dump_test_catalogue.py"


async def test_committed_test_catalogue_is_what_the_api_serves() -> None:
    script = load_script(SCRIPT)
    fresh: str = script.render(await script.served_catalogue())
    committed = script.DEFAULT_OUTPUT.read_text(encoding="utf-8")
    run = f"run .venv/bin/python {script.COMMAND}"
    stale = f"the web UI's test catalogue is stale: {run}"
    assert json.loads(committed) == json.loads(fresh), stale
    assert committed == fresh, f"the web UI's test catalogue is not formatted as written: {run}"


async def test_price_ids_are_fake_and_follow_the_plan_keys() -> None:
    body = await load_script(SCRIPT).served_catalogue()
    assert body["plans"], "the shipped catalogue sells something"
    for plan in body["plans"]:
        assert plan["price_id"] == "price_" + plan["key"].replace("-", "_")
