"""A fake of the EU Commission's VIES REST API, a real HTTP server on 127.0.0.1.

`POST /check-vat-number` takes VIES's JSON (`countryCode`, `vatNumber`, optionally
`requesterMemberStateCode` and `requesterNumber`) and answers as VIES does (the published
"Vies on-the-Web Endpoint" contract; see agency/modules/tax/clients.py for what the product
relies on):

- a number in `valid` (full VAT ID -> (name, address)): 200 `CheckVatResponse` with
  `valid: true`, the name and address (`"---"` for None, as member states that share neither),
  and a `requestIdentifier` ("WAPI...") when the requester fields were sent, "" otherwise;
- any other well-formed number: 200 with `valid: false`, name and address `"---"`;
- a number (or every number, `down`) mapped in `errors` to an error code: that error as VIES
  sends it, `{"actionSucceed": false, "errorWrappers": [{"error": CODE, "message": ...}]}`,
  with the HTTP status of `ERROR_STATUS` (MS_UNAVAILABLE 500, MS_MAX_CONCURRENT_REQ 200, ...);
- `malformed` numbers: 200 with a body that is not VIES's JSON;
- a body without `countryCode`/`vatNumber`: 400 `INVALID_INPUT`.

`requests` logs each call's JSON body; `delay` makes every answer wait. From a shell:
``python -m tests.fakes.vies_server --port 12116``.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

from quart import Response, jsonify, request

from tests.fakes.serving import FakeServer, serving

# Numbers the fake knows as issued (they also pass python-stdnum's check digits).
KNOWN_VALID: dict[str, tuple[str | None, str | None]] = {
    # Germany shares neither name nor address through VIES.
    "DE136695976": (None, None),
    "FR40303265045": ("SA SODIMAS", "11 RUE AMPERE\n26600 PONT DE L ISERE"),
    "NL004495445B01": ("Example B.V.", "Dam 1\n1012JS Amsterdam"),
    "ATU13585627": ("Beispiel GmbH", "Ring 1, 1010 Wien"),
    "EL094014201": ("ELLINIKI ETAIREIA", "ATHINA"),
}
ERROR_STATUS = {
    "MS_UNAVAILABLE": 500,
    "SERVICE_UNAVAILABLE": 500,
    "TIMEOUT": 500,
    "MS_MAX_CONCURRENT_REQ": 200,
    "GLOBAL_MAX_CONCURRENT_REQ": 200,
    "INVALID_INPUT": 400,
    "INVALID_REQUESTER_INFO": 400,
}


class FakeVies(FakeServer):
    name = "fake-vies"

    def __init__(self) -> None:
        super().__init__()
        self.valid: dict[str, tuple[str | None, str | None]] = dict(KNOWN_VALID)
        self.errors: dict[str, str] = {}
        self.malformed: set[str] = set()
        self.down: str | None = None  # an error code every number gets
        self.delay = 0.0
        self.requests: list[dict[str, Any]] = []
        self._consultations = itertools.count(1)
        self.app.add_url_rule("/check-vat-number", "check", self._check, methods=["POST"])

    def reset(self) -> None:
        self.valid = dict(KNOWN_VALID)
        self.errors.clear()
        self.malformed.clear()
        self.down = None
        self.delay = 0.0
        self.requests.clear()

    async def _check(self) -> Response:
        body = await request.get_json(silent=True)
        self.requests.append(body if isinstance(body, dict) else {"raw": body})
        if self.delay:
            await asyncio.sleep(self.delay)
        if not isinstance(body, dict):
            return self._error("INVALID_INPUT")
        country, number = body.get("countryCode"), body.get("vatNumber")
        if not isinstance(country, str) or not isinstance(number, str) or not number:
            return self._error("INVALID_INPUT")
        vat_id = country.upper() + number.upper()
        code = self.down or self.errors.get(vat_id)
        if code is not None:
            return self._error(code)
        if vat_id in self.malformed:
            return Response(
                "<html>Service temporarily unavailable</html>", 200, content_type="text/html"
            )
        requester = body.get("requesterMemberStateCode") and body.get("requesterNumber")
        valid = vat_id in self.valid
        name, address = self.valid.get(vat_id, (None, None))
        return jsonify(
            {
                "countryCode": country.upper(),
                "vatNumber": number.upper(),
                "requestDate": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
                "valid": valid,
                "requestIdentifier": f"WAPIAAAA{next(self._consultations):08d}"
                if requester
                else "",
                "name": (name or "---") if valid else "---",
                "address": (address or "---") if valid else "---",
                "traderName": "",
                "traderStreet": "",
                "traderPostalCode": "",
                "traderCity": "",
                "traderCompanyType": "",
                "traderNameMatch": "NOT_PROCESSED",
                "traderStreetMatch": "NOT_PROCESSED",
                "traderPostalCodeMatch": "NOT_PROCESSED",
                "traderCityMatch": "NOT_PROCESSED",
                "traderCompanyTypeMatch": "NOT_PROCESSED",
            }
        )

    def _error(self, code: str) -> Response:
        response = jsonify(
            {
                "actionSucceed": False,
                "errorWrappers": [{"error": code, "message": code.replace("_", " ").lower()}],
            }
        )
        response.status_code = ERROR_STATUS.get(code, 500)
        return response


def run_fake_vies() -> AbstractContextManager[FakeVies]:
    return serving(FakeVies())


def main() -> None:  # pragma: no cover - a developer's tool
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=12116)
    FakeVies().serve_forever(parser.parse_args().port)


if __name__ == "__main__":  # pragma: no cover
    main()
