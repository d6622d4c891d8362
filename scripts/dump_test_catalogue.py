"""Write the web UI's test catalogue: what `GET /api/catalogue` answers for config/catalogue.toml.

    .venv/bin/python scripts/dump_test_catalogue.py [OUTPUT]

OUTPUT defaults to webui/test/fixtures/catalogue.json.

The Vitest tests render prices, plans and families from this file (`webui/test/catalogue.ts`).
It is made by the catalogue module's own code, so it cannot drift from the server: the data
file is loaded and checked (`service.load_file`), seeded into an in-memory SQLite database
(`service.seed`) and read back as the route serialises it (`service.catalogue`). Stripe ids are
fake (`price_<plan key>`), as no Stripe account is involved. The file is committed (the web UI
tests run without Python); `tests/catalogue/test_webui_fixture.py` fails when it is stale.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from agency.core import db
from agency.modules.catalogue import service
from agency.modules.tax import api as tax_api
from agency.registry import MODULES
from agency.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "webui" / "test" / "fixtures" / "catalogue.json"
COMMAND = "scripts/dump_test_catalogue.py"


def fake_id(prefix: str, plan_key: str) -> str:
    """A Stripe-looking id for a plan: `price_ai_booking_pro` for `ai-booking-pro`."""
    return f"{prefix}_{plan_key.replace('-', '_')}"


async def served_catalogue(path: Path | None = None) -> dict[str, Any]:
    """The JSON body `GET /api/catalogue` answers once the data file at `path` is seeded."""
    data = service.load_file(path)
    await db.init_db("sqlite://:memory:", [m.models for m in MODULES if m.models is not None])
    try:
        await db.generate_schema()
        await service.seed(data)
        for plan in data.plans:
            await service.set_stripe_ids(
                plan.key, product_id=fake_id("prod", plan.key), price_id=fake_id("price", plan.key)
            )
        # The tax block of the default settings (a German agency, gross prices).
        tax = tax_api.tax_display(Settings())
        body: dict[str, Any] = (await service.catalogue(tax)).model_dump(mode="json")
    finally:
        await db.close_db()
    return body


def render(body: dict[str, Any]) -> str:
    """Indented, in the API's own key order, so a change reads as a small diff."""
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    output = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUTPUT
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(render(asyncio.run(served_catalogue())), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
