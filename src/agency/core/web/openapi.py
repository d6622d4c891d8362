"""The OpenAPI document's answers that quart-schema cannot see: a route answering a file (CSV,
XML, PDF, an image, a JSON download) or nothing at all (204) documents it with `answers`, so
every operation of the published document lists its responses, as OpenAPI 3.1 requires
(`tests/test_openapi_valid.py`). JSON answers keep `@validate_response(Model, status)`.

    @blueprint.get("/api/admin/leads.csv")
    @openapi.answers(200, "The leads as CSV, one a line.", "text/csv")
    async def get_leads_csv(...): ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from quart_schema import OpenAPIProvider
from werkzeug.routing import Rule

ANSWERS_ATTRIBUTE = "_agency_openapi_answers"

T = TypeVar("T", bound=Callable[..., Any])


def answers(status: int, description: str, *media_types: str) -> Callable[[T], T]:
    """Document one answer of a route that is not a JSON model: its status, what it is, and
    the media types of its body (none for an empty answer)."""

    def decorator(func: T) -> T:
        documented: dict[int, dict[str, Any]] = dict(getattr(func, ANSWERS_ATTRIBUTE, {}))
        answer: dict[str, Any] = {"description": description}
        if media_types:
            # Any bytes of that type: no JSON schema describes a file.
            answer["content"] = {media_type: {} for media_type in media_types}
        documented[status] = answer
        setattr(func, ANSWERS_ATTRIBUTE, documented)
        return func

    return decorator


class AgencyOpenAPIProvider(OpenAPIProvider):
    """quart-schema's document, with the answers documented by `answers`."""

    def build_paths(self, rule: Rule) -> tuple[dict[str, Any], dict[str, Any]]:
        paths, components = super().build_paths(rule)
        func = self._app.view_functions[rule.endpoint]
        documented: dict[int, dict[str, Any]] = getattr(func, ANSWERS_ATTRIBUTE, {})
        if documented:
            for operations in paths.values():
                for operation in operations.values():
                    operation["responses"] = {
                        **operation["responses"],
                        **{status: dict(answer) for status, answer in documented.items()},
                    }
        return paths, components
