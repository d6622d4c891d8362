"""A small VIES REST API for the billing tests (`POST /check-vat-number`, as the tax module's
client speaks it): every well-formed number is valid unless listed in `invalid`; a number in
`down` (or every number while `all_down`) gets VIES's outage answer (500 MS_UNAVAILABLE)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from quart import jsonify, request

from tests.fakes.serving import FakeServer, serving


class FakeVies(FakeServer):
    name = "fake-vies"

    def __init__(self) -> None:
        super().__init__()
        self.invalid: set[str] = set()
        self.down: set[str] = set()
        self.all_down = False
        self.asked: list[str] = []

        @self.app.post("/check-vat-number")
        async def check() -> Any:
            body = await request.get_json(force=True, silent=True) or {}
            country, number = str(body.get("countryCode", "")), str(body.get("vatNumber", ""))
            vat_id = country + number
            self.asked.append(vat_id)
            if self.all_down or vat_id in self.down:
                failure = {
                    "actionSucceed": False,
                    "errorWrappers": [
                        {"error": "MS_UNAVAILABLE", "message": "The member state is down."}
                    ],
                }
                return jsonify(failure), 500
            valid = vat_id not in self.invalid
            return jsonify(
                {
                    "countryCode": country,
                    "vatNumber": number,
                    "requestDate": datetime.now(UTC).isoformat(),
                    "valid": valid,
                    "requestIdentifier": "",
                    "name": f"Company {vat_id}" if valid else "---",
                    "address": "1 Example Street, 75001 Paris" if valid else "---",
                }
            )

    def reset(self) -> None:
        self.invalid.clear()
        self.down.clear()
        self.all_down = False
        self.asked.clear()


@contextmanager
def run_fake_vies() -> Iterator[FakeVies]:
    with serving(FakeVies()) as fake:
        yield fake
