"""Compression of Quart responses: the API's JSON goes out as brotli or gzip when the client
asks for it, small bodies and streams go out as they are."""

from __future__ import annotations

import gzip
import json
from typing import Any

import brotli
from hypothesis import given
from hypothesis import strategies as st

from agency.core.web.compression import MIN_SIZE, choose_encoding, compress
from agency.modules.catalogue import service

codings = st.sampled_from(["br", "gzip", "deflate", "identity", "zstd", "*", "x-custom"])
weights = st.sampled_from(["", ";q=0", ";q=0.0", ";q=0.5", ";q=1", "; q=0.001"])
headers = st.lists(st.tuples(codings, weights), max_size=6).map(
    lambda parts: ", ".join(name + weight for name, weight in parts)
)


@given(headers)
def test_choose_encoding_prefers_brotli_and_honours_q_zero(header: str) -> None:
    chosen = choose_encoding(header)
    allowed = {
        part.split(";")[0].strip()
        for part in header.split(",")
        if part.strip() and not part.replace(" ", "").endswith(("q=0", "q=0.0"))
    }
    if "br" in allowed:
        assert chosen == "br"
    elif "gzip" in allowed:
        assert chosen == "gzip"
    else:
        assert chosen is None


@given(st.binary(max_size=5000), st.sampled_from(["br", "gzip"]))
def test_compress_round_trips(body: bytes, encoding: str) -> None:
    packed = compress(body, encoding)
    assert (brotli.decompress(packed) if encoding == "br" else gzip.decompress(packed)) == body


async def test_catalogue_json_is_compressed_for_clients_that_ask(client: Any) -> None:
    await service.seed(service.load_file())
    plain = await client.get("/api/catalogue")
    body = await plain.get_data()
    assert len(body) > MIN_SIZE and "Content-Encoding" not in plain.headers
    assert "Accept-Encoding" in plain.headers.get("Vary", "")

    as_br = await client.get("/api/catalogue", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert as_br.headers["Content-Encoding"] == "br"
    packed = await as_br.get_data()
    assert len(packed) < len(body) / 3
    assert json.loads(brotli.decompress(packed)) == json.loads(body)
    assert as_br.headers["ETag"] == "W/" + plain.headers["ETag"]

    as_gzip = await client.get("/api/catalogue", headers={"Accept-Encoding": "gzip"})
    assert as_gzip.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(await as_gzip.get_data())) == json.loads(body)

    # The weak tag the browser sends back still revalidates.
    again = await client.get(
        "/api/catalogue",
        headers={"Accept-Encoding": "br", "If-None-Match": as_br.headers["ETag"]},
    )
    assert again.status_code == 304


async def test_small_and_refused_bodies_go_out_as_they_are(client: Any) -> None:
    small = await client.get("/api/health", headers={"Accept-Encoding": "br, gzip"})
    assert small.status_code == 200 and "Content-Encoding" not in small.headers
    await service.seed(service.load_file())
    refused = await client.get("/api/catalogue", headers={"Accept-Encoding": "br;q=0, gzip;q=0"})
    assert "Content-Encoding" not in refused.headers
