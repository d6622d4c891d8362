"""The web UI's API types are generated from the server's OpenAPI document and committed
(`webui/openapi.json` -> `webui/src/lib/api-schema.d.ts`, by `scripts/gen-api-types`). A change
to a route or a schema that alters the document fails here until both are regenerated, so the
web UI cannot silently drift from the server. (`scripts/test` also checks the types file.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agency.app import create_app
from agency.core.settings import load_settings

COMMITTED = Path(__file__).resolve().parent.parent / "webui" / "openapi.json"


async def test_committed_openapi_document_is_the_servers() -> None:
    app = create_app(load_settings())
    response = await app.test_client().get("/openapi.json")
    assert response.status_code == 200
    served: dict[str, Any] = await response.get_json()
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    assert served == committed, "the API types are out of date: run scripts/gen-api-types"
