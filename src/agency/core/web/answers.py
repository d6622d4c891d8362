"""JSON answers serialised once and kept, for the reads every dashboard page makes.

A route under `validate_response` returns a model that quart-schema checks against the
declared one, dumps to Python values and hands to the JSON provider: about a fifth of a
signed-in read's CPU, paid again for the same answer on every request. The hot reads instead
build their model once, keep its JSON bytes (in a revision cache, or keyed on the account),
and answer with a finished `Response`; `document_response` keeps the OpenAPI schema. Pydantic
checked the model when it was built, so the bytes are those of a valid answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable

from pydantic import BaseModel
from quart import Response

from agency.core.web.revisions import Cached

JSON = "application/json"


def model_body(model: BaseModel) -> bytes:
    """The model as the API sends it (JSON mode: ISO dates, Decimals as strings)."""
    return model.__pydantic_serializer__.to_json(model)


def json_response(body: bytes, status: int = 200) -> Response:
    return Response(body, status=status, content_type=JSON)


class CachedAnswers(Cached[bytes]):
    """A revision cache (`core.web.revisions`) of JSON answers: each key's model is built by
    `build` when the cache has no answer for it, and its bytes are what is kept."""

    async def respond(self, key: Hashable, build: Callable[[], Awaitable[BaseModel]]) -> Response:
        async def load() -> bytes:
            return model_body(await build())

        return json_response(await self.get(key, load))
