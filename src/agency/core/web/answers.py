"""JSON answers serialised once and kept, for the reads every dashboard page makes.

A route under `validate_response` returns a model that quart-schema checks against the
declared one, dumps to Python values and hands to the JSON provider: about a fifth of a
signed-in read's CPU, paid again for the same answer on every request. The hot reads instead
build their model once, keep its JSON bytes (in a revision cache, or keyed on the account),
and answer with a finished `Response`; `document_response` keeps the OpenAPI schema. Pydantic
checked the model when it was built, so the bytes are those of a valid answer.
"""

from __future__ import annotations

from pydantic import BaseModel
from quart import Response

JSON = "application/json"


def model_body(model: BaseModel) -> bytes:
    """The model as the API sends it (JSON mode: ISO dates, Decimals as strings)."""
    return model.__pydantic_serializer__.to_json(model)


def json_response(body: bytes, status: int = 200) -> Response:
    return Response(body, status=status, content_type=JSON)
