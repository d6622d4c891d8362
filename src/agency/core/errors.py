"""One error vocabulary. Services raise these; the app turns each into the one JSON shape
`{"error": {"code": ..., "message": ..., "fields": {...}}}`."""

from __future__ import annotations

from collections.abc import Mapping

GENERIC_MESSAGE = "Something went wrong. Please try again."
UNAVAILABLE_MESSAGE = "The service is briefly unavailable. Please try again in a few seconds."
# Seconds a client is asked to wait (Retry-After) when the database cannot be reached.
UNAVAILABLE_RETRY_AFTER = 5


class AppError(Exception):
    status = 400
    code = "bad_request"

    def __init__(
        self,
        message: str,
        *,
        fields: Mapping[str, str] | None = None,
        code: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.fields = dict(fields or {})
        self.headers = dict(headers or {})
        if code is not None:
            self.code = code

    def to_dict(self) -> dict[str, object]:
        body: dict[str, object] = {"code": self.code, "message": self.message}
        if self.fields:
            body["fields"] = self.fields
        return {"error": body}


class ValidationFailed(AppError):
    status = 400
    code = "validation_error"


class Unauthorized(AppError):
    status = 401
    code = "unauthorized"


class Forbidden(AppError):
    status = 403
    code = "forbidden"


class NotFound(AppError):
    status = 404
    code = "not_found"


class Conflict(AppError):
    status = 409
    code = "conflict"


class TooManyRequests(AppError):
    status = 429
    code = "rate_limited"


class ServiceUnavailable(AppError):
    status = 503
    code = "unavailable"
