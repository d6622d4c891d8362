"""The web UI's API types are generated from the server's OpenAPI document and committed
(`webui/openapi.json` -> `webui/src/lib/api-schema.d.ts`, by `scripts/gen-api-types`). A change
to a route or a schema that alters the document fails here until both are regenerated, so the
web UI cannot silently drift from the server. (`scripts/test` also checks the types file.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agency.app import create_app
from agency.settings import load_settings

COMMITTED = Path(__file__).resolve().parent.parent / "webui" / "openapi.json"


async def test_committed_openapi_document_is_the_servers() -> None:
    app = create_app(load_settings())
    response = await app.test_client().get("/openapi.json")
    assert response.status_code == 200
    served: dict[str, Any] = await response.get_json()
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    assert served == committed, "the API types are out of date: run scripts/gen-api-types"


def test_operation_ids_are_unique() -> None:
    """quart-schema names an operation after its route function: two modules' functions of the
    same name give two operations one id, and the generated types then give one path the
    other's shapes."""
    document = json.loads(COMMITTED.read_text(encoding="utf-8"))
    seen: dict[str, str] = {}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "operationId" not in operation:
                continue
            where = f"{method.upper()} {path}"
            other = seen.setdefault(operation["operationId"], where)
            assert other == where, f"{other} and {where} share {operation['operationId']}"
