"""Reading a JSON request body without a 500: Quart decodes the body as UTF-8 outside the
`try` that turns bad JSON into a 400, and Python's parser raises RecursionError (not a
ValueError) on deep nesting. `JsonRequest` answers each of these with a 400 in the error
shape, for every route at once (quart-schema's `validate_request` calls `get_json`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from quart import Request

from agency.core.errors import ValidationFailed
from agency.core.web.security import upload_path_matches

MSG_NOT_UTF8 = "The request body must be UTF-8 text."
MSG_TOO_DEEP = "The request body is nested too deeply."
MSG_NOT_JSON = "The request body is not valid JSON."


class JsonRequest(Request):
    """The app's request class: `get_json` never raises anything but a 400."""

    async def get_json(self, force: bool = False, silent: bool = False, cache: bool = True) -> Any:
        if cache and self._cached_json[silent] is not Ellipsis:
            return self._cached_json[silent]
        if not (force or self.is_json):
            return None
        raw = await self.get_data(cache=cache, as_text=False)
        assert isinstance(raw, bytes)
        try:
            result = self.json_module.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
            if not silent:
                raise _failure(error) from error
            result = None
        if cache:
            self._cached_json[silent] = result
        return result


def _failure(error: Exception) -> ValidationFailed:
    if isinstance(error, UnicodeDecodeError):
        return ValidationFailed(MSG_NOT_UTF8)
    if isinstance(error, RecursionError):
        return ValidationFailed(MSG_TOO_DEEP)
    return ValidationFailed(MSG_NOT_JSON)


def request_class(uploads: Sequence[str], upload_limit: int) -> type[JsonRequest]:
    """`JsonRequest` whose body limit is `upload_limit` bytes for a POST to one of the upload
    paths (`Module.uploads`, `security.upload_path_matches` patterns), the app's
    `MAX_CONTENT_LENGTH` everywhere else. Quart takes the limit when it makes the request,
    before any of the body is read, so a larger body elsewhere is still a 413 at once."""
    patterns = tuple(uploads)

    class UploadRequest(JsonRequest):
        def __init__(self, method: str, scheme: str, path: str, *args: Any, **kwargs: Any) -> None:
            upload = method == "POST" and any(upload_path_matches(p, path) for p in patterns)
            if upload:
                kwargs["max_content_length"] = upload_limit
            super().__init__(method, scheme, path, *args, **kwargs)
            if upload:  # the form parser's limit (else the app's MAX_CONTENT_LENGTH)
                self.max_content_length = upload_limit

    return UploadRequest
