"""The EU Commission's VIES REST API, which says whether a VAT ID is issued (over httpx).

What this relies on (the API's published contract, "Vies on-the-Web Endpoint" 1.0.0, swagger 2.0):

- `POST {base}/check-vat-number` with JSON `{"countryCode": "DE", "vatNumber": "136695976"}`,
  plus `"requesterMemberStateCode"` and `"requesterNumber"` (the agency's own VAT ID, split the
  same way) for a qualified check. Greece's prefix is `EL`, as in its VAT IDs.
- 200 `CheckVatResponse`: `valid` (boolean) is the answer; `name`, `address` (`"---"` when the
  member state does not share them), `requestIdentifier` (the consultation number, only with
  the requester fields), `requestDate`, `countryCode`, `vatNumber`.
- 400/500 (and, seen in practice, also 200) `CommonResponse`: `{"actionSucceed": false,
  "errorWrappers": [{"error": "MS_UNAVAILABLE", "message": "..."}]}`. Codes: `INVALID_INPUT`
  (the number is not well formed: VIES's "no"), `VAT_BLOCKED` (refused: a "no" too),
  `INVALID_REQUESTER_INFO` (our own VAT ID refused: asked again without it), and the outages
  `SERVICE_UNAVAILABLE`, `MS_UNAVAILABLE`, `TIMEOUT`, `GLOBAL_MAX_CONCURRENT_REQ`,
  `MS_MAX_CONCURRENT_REQ`, `IP_BLOCKED` and any other code.
- The GET variant's `userError` field (`VALID`, `INVALID` or an error code) is read too when
  present, in case the POST answer carries it.

Anything else (no answer in time, a network error, a body that is not that JSON, a body over
`MAX_ANSWER_BYTES`) is an outage: `ViesUnavailable`, never a "valid".
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from agency.net import bounded_body
from agency.net.tls import tls_context

if TYPE_CHECKING:
    import httpx

log = logging.getLogger(__name__)

# An answer is a few hundred bytes of JSON; anything near this is not VIES.
MAX_ANSWER_BYTES: Final = 64 * 1024
NO: Final = frozenset({"INVALID_INPUT", "VAT_BLOCKED", "INVALID"})
REQUESTER_REFUSED: Final = "INVALID_REQUESTER_INFO"
FIELD_MAX: Final = 500


@dataclass(frozen=True)
class ViesAnswer:
    """VIES's answer: whether the number is valid, and what it told about the holder."""

    valid: bool
    name: str | None = None
    address: str | None = None
    request_identifier: str | None = None
    error: str | None = None  # the code of a "no" given as an error (INVALID_INPUT)


class ViesUnavailable(Exception):
    """VIES gave no answer: `code` is its error code, or ours (NETWORK, HTTP_503, MALFORMED)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code[:64]


def _text(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    text = " ".join(value.split())
    if not text or text.strip("-") == "":
        return None
    return text[:FIELD_MAX]


def _error_codes(body: dict[str, Any]) -> list[str]:
    codes: list[str] = []
    wrappers = body.get("errorWrappers")
    if isinstance(wrappers, list):
        for wrapper in wrappers:
            if isinstance(wrapper, dict) and isinstance(wrapper.get("error"), str):
                codes.append(wrapper["error"].strip().upper())
    user_error = body.get("userError")
    if isinstance(user_error, str) and user_error.strip().upper() not in ("", "VALID", "INVALID"):
        codes.append(user_error.strip().upper())
    if body.get("actionSucceed") is False and not codes:
        codes.append("SERVICE_UNAVAILABLE")
    return codes


def read_answer(status: int, body: Any) -> ViesAnswer:
    """VIES's answer from an HTTP status and its parsed JSON body; raises `ViesUnavailable`."""
    if not isinstance(body, dict):
        raise ViesUnavailable("MALFORMED" if status == 200 else f"HTTP_{status}")
    codes = _error_codes(body)
    if codes:
        if codes[0] in NO:
            return ViesAnswer(valid=False, error=codes[0])
        raise ViesUnavailable(codes[0])
    if status != 200:
        raise ViesUnavailable(f"HTTP_{status}")
    valid = body.get("valid")
    if not isinstance(valid, bool):
        valid = body.get("isValid")  # the GET variant's name
    if not isinstance(valid, bool):
        raise ViesUnavailable("MALFORMED")
    return ViesAnswer(
        valid=valid,
        name=_text(body.get("name")) if valid else None,
        address=_text(body.get("address")) if valid else None,
        request_identifier=_text(body.get("requestIdentifier")),
    )


async def check_vat_number(
    number: str, *, base: str, timeout: float, requester: str = ""
) -> ViesAnswer:
    """Ask VIES about `number` (compact, with its prefix); with `requester` (the agency's own
    VAT ID) a qualified check with a consultation number. Raises `ViesUnavailable`."""
    import httpx

    async with httpx.AsyncClient(
        timeout=timeout,
        verify=tls_context(),
        event_hooks=bounded_body.httpx_hooks(max_bytes=MAX_ANSWER_BYTES),
    ) as client:
        try:
            return await _ask(client, base, number, requester)
        except ViesUnavailable as exc:
            if exc.code != REQUESTER_REFUSED or not requester:
                raise
            log.warning("VIES refused the requester VAT ID %s; asking without it", requester)
            return await _ask(client, base, number, "")


async def _ask(client: httpx.AsyncClient, base: str, number: str, requester: str) -> ViesAnswer:
    import httpx

    payload = {"countryCode": number[:2], "vatNumber": number[2:]}
    if requester:
        payload["requesterMemberStateCode"] = requester[:2]
        payload["requesterNumber"] = requester[2:]
    url = f"{base.rstrip('/')}/check-vat-number"
    try:
        response = await client.post(url, json=payload, headers={"Accept": "application/json"})
        raw = response.content
    except bounded_body.BodyLimitError as exc:
        log.warning("VIES's answer was refused: %s", exc)
        raise ViesUnavailable("MALFORMED") from None
    except httpx.TimeoutException:
        raise ViesUnavailable("TIMEOUT") from None
    except httpx.HTTPError as exc:
        log.warning("VIES did not answer: %s", type(exc).__name__)
        raise ViesUnavailable("NETWORK") from None
    try:
        body = response.json() if raw else None
    except (ValueError, RecursionError):
        body = None
    answer = read_answer(response.status_code, body)
    return answer
