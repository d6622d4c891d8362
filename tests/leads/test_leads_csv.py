"""The leads CSV against CSV injection whatever separator the spreadsheet splits it on:
Excel in German or French reads a CSV with ';', so `x;=1+1` must not become a cell
`=1+1`. Every cell is quoted, and every formula start at the start of a text or after a
separator or line break in it gets a single quote, which is the only change."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agency.modules.auth.service import admin as auth_admin
from agency.modules.leads.schemas import LeadOut
from agency.modules.leads.service import leads as lead_service
from agency.modules.leads.service.leads import CSV_HEADER, csv_cell, csv_text
from tests.helpers.http import HEADERS, call, sign_up

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Text made mostly of what matters here: separators, line breaks, quotes and formula starts.
TEXT = st.lists(
    st.sampled_from(list("=+-@\t\r\n;,\"' x1")) | st.characters(codec="utf-8"), max_size=16
).map("".join)  # not st.text(a | b): it would draw from the union evenly, losing the bias


def _lead(email: str, name: str, domain: str, message: str) -> LeadOut:
    return LeadOut(
        id=1,
        source="free-preview",
        source_label="Free preview",
        email=email,
        name=name,
        domain=domain,
        message=message,
        created_at=datetime.now(UTC),
    )


def _fields(text: str, delimiter: str) -> list[str]:
    """Every field a spreadsheet splitting on `delimiter` would make of the file."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    return [field for row in reader for field in row]


@given(email=TEXT, name=TEXT, domain=TEXT, message=TEXT)
def test_no_split_of_the_file_starts_a_cell_with_a_formula(
    email: str, name: str, domain: str, message: str
) -> None:
    texts = [email, name, domain, message]
    output = lead_service.to_csv([_lead(*texts)])
    for delimiter in (",", ";", "\t"):
        for field in _fields(output, delimiter):
            assert not field.startswith(FORMULA_STARTS), (delimiter, field, output)
    header, row = list(csv.reader(io.StringIO(output, newline="")))
    assert tuple(header) == CSV_HEADER
    assert [csv_text(cell) for cell in row[2:]] == texts  # nothing lost


@given(TEXT | st.text())
def test_the_only_change_is_a_single_quote_before_a_formula_start(text: str) -> None:
    cell = csv_cell(text)
    assert csv_text(cell) == text
    assert cell.replace("'", "") == text.replace("'", "")  # only single quotes were added
    if not any(char in text for char in "=+-@\t\r"):
        assert cell == text


def test_the_probes_cases() -> None:
    assert csv_cell("x;=1+1") == "x;'=1+1"
    assert csv_cell("=1+1") == "'=1+1"
    assert csv_cell("a,@SUM(A1)") == "a,'@SUM(A1)"
    assert csv_cell("line\n-2+3") == "line\n'-2+3"
    assert csv_cell("plain text, with a comma; and - a dash") == (
        "plain text, with a comma; and - a dash"
    )
    output = lead_service.to_csv([_lead("a@b.co", "x;=1+1", "", "")])
    header, row = output.splitlines()
    assert header == ",".join(CSV_HEADER)
    assert row.endswith('"Free preview","a@b.co","x;\'=1+1","",""')
    assert all(cell.startswith('"') for cell in row.split(","))  # every cell quoted


async def test_the_download_is_quoted_and_neutralised(app: Any) -> None:
    client = app.test_client()
    lead = {"source": "free-preview", "email": "a@b.co", "name": "x;=1+1", "domain": "x.com"}
    assert (await call(client, "post", "/api/leads", lead))[0] == 201
    await sign_up(client)
    await auth_admin.set_role("ada@example.com", "admin")
    response = await client.get("/api/admin/leads.csv", headers=HEADERS)
    text = (await response.get_data()).decode()
    assert '"x;\'=1+1"' in text
    for field in _fields(text, ";"):
        assert not field.startswith(FORMULA_STARTS), field
