"""Writes a stand-in for webui/dist, for benchmarking before the web UI is built.

Same layout as the real build (prerendered pages, SPA shell, routes.json, hashed assets with
.br and .gz siblings). The script is a real minified bundle (react-dom from webui/node_modules
when present) so compression ratios look like production. Run:
`python bench/make_fake_dist.py /tmp/fake-dist`.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import shutil
from pathlib import Path

import brotli  # type: ignore[import-untyped]

REPO = Path(__file__).resolve().parent.parent
BUNDLE_SOURCE = REPO / "webui/node_modules/react-dom/cjs/react-dom-client.production.js"
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="UTF-8"><meta name="viewport"
content="width=device-width, initial-scale=1.0"><title>{title}</title>
<script type="module" crossorigin src="/assets/{script}"></script></head>
<body><div id="root">{body}</div></body></html>
"""


def compress(path: Path) -> None:
    data = path.read_bytes()
    (path.parent / (path.name + ".br")).write_bytes(
        brotli.compress(data, quality=11, mode=brotli.MODE_TEXT)
    )
    (path.parent / (path.name + ".gz")).write_bytes(gzip.compress(data, compresslevel=9))


def make(out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    (out / "assets").mkdir(parents=True)
    (out / "landing").mkdir()
    if BUNDLE_SOURCE.is_file():
        bundle = BUNDLE_SOURCE.read_bytes()[:240_000]
    else:  # No node_modules: repetitive but still JS-like text.
        bundle = b"".join(
            f"function f{i}(a,b){{return a.map(x=>x*{i}+b).filter(Boolean)}}\n".encode()
            for i in range(4000)
        )
    script = f"index-{hashlib.sha256(bundle).hexdigest()[:8]}.js"
    (out / "assets" / script).write_bytes(bundle)
    body = "".join(
        f"<section><h2>Section {i}</h2><p>{'Lorem ipsum. ' * 20}</p></section>" for i in range(12)
    )
    (out / "index.html").write_text(PAGE.format(title="Home", script=script, body=body))
    (out / "landing/index.html").write_text(PAGE.format(title="Landing", script=script, body=body))
    (out / "spa.html").write_text(PAGE.format(title="agency", script=script, body=""))
    (out / "robots.txt").write_text("User-agent: *\nAllow: /\n")
    (out / "routes.json").write_text(
        json.dumps({"prerendered": ["/", "/landing"], "spa": ["/start"]})
    )
    for path in [*out.glob("**/*.html"), out / "assets" / script, out / "robots.txt"]:
        compress(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    make(parser.parse_args().out)


if __name__ == "__main__":
    main()
