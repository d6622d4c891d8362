"""Write the server's OpenAPI document (what `GET /openapi.json` answers) to a file.

    .venv/bin/python scripts/dump_openapi.py [OUTPUT]   # default: webui/openapi.json

The web UI's TypeScript types are generated from this file (`scripts/gen-api-types`), and
both are committed: the web UI builds without Python, and `scripts/test` and
`tests/test_api_contract.py` fail when the committed document differs from the server's.
No database is needed: quart-schema renders the document from the routes and the models.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from agency.app import create_app
from agency.settings import load_settings

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "webui" / "openapi.json"


async def openapi_document() -> dict[str, Any]:
    """The document exactly as the server publishes it at /openapi.json."""
    app = create_app(load_settings())
    async with app.app_context():
        document: dict[str, Any] = app.extensions["QUART_SCHEMA"].openapi_provider.schema()
    return document


def render(document: dict[str, Any]) -> str:
    """Pretty-printed with sorted keys, so a change reads as a small diff."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    output = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUTPUT
    output.write_text(render(asyncio.run(openapi_document())), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
