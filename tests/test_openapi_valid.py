"""The OpenAPI document the server publishes at /openapi.json is valid OpenAPI 3.1, checked by
a standard validator (openapi-spec-validator): every operation documents its answers (a route
that answers a file or no body says so with `core.web.openapi.answers`)."""

from __future__ import annotations

from typing import Any

from openapi_spec_validator import OpenAPIV31SpecValidator

from agency.app import create_app
from agency.settings import load_settings


async def _served() -> dict[str, Any]:
    app = create_app(load_settings())
    response = await app.test_client().get("/openapi.json")
    assert response.status_code == 200
    document: dict[str, Any] = await response.get_json()
    return document


async def test_the_published_document_is_valid_openapi_3_1() -> None:
    document = await _served()
    assert document["openapi"].startswith("3.1")
    errors = [
        f"{'/'.join(str(p) for p in error.absolute_path)}: {error.message}"
        for error in OpenAPIV31SpecValidator(document).iter_errors()
    ]
    assert errors == []


async def test_every_operation_documents_its_answers() -> None:
    document = await _served()
    bare = [
        f"{method.upper()} {path}"
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if isinstance(operation, dict) and not operation.get("responses")
    ]
    assert bare == [], (
        "document these routes' answers: @validate_response(Model, status) for JSON, "
        "@openapi.answers(status, description, media_type) (agency.core.web.openapi) otherwise"
    )
    for operations in document["paths"].values():
        for operation in operations.values():
            for answer in operation["responses"].values():
                assert answer.get("description") is not None
