"""The blog's server markup and its React markup are one: `webui/test/fixtures/
blog-render-cases.json` holds data and the HTML the server writes for it (made by
`scripts/dump_blog_render_cases.py` with the blog's own renderer); the web UI's
`BlogRegion.test.tsx` renders the same data and requires the same DOM. This fails when the
committed file is stale."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "dump_blog_render_cases.py"


def test_committed_render_cases_are_what_the_server_writes() -> None:
    script = load_script(SCRIPT)
    fresh: str = script.render(script.cases())
    committed = script.DEFAULT_OUTPUT.read_text(encoding="utf-8")
    run = f"run .venv/bin/python {script.COMMAND}"
    assert json.loads(committed) == json.loads(fresh), f"the blog render cases are stale: {run}"
    assert committed == fresh, f"the blog render cases are not formatted as written: {run}"
