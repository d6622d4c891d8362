"""Every prerendered public page in real Chromium, at phone and desktop width: no axe-core
violation (WCAG 2.0/2.1 A and AA plus axe's best practices, and two "needs review" rules), and
no console error, warning or hydration mismatch.

axe-core comes from webui/node_modules (a pinned dev dependency). The site's CSP is
`script-src 'self'`, so axe is injected into a context that bypasses the CSP; only this test
does that, the other E2E tests run under the real policy.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from agency.core.paths import web_dir
from tests.e2e.conftest import DESKTOP, PHONE, ConsoleLog, LiveServer, open_page

ROOT = web_dir().parent  # webui/
AXE_SOURCE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PRERENDERED: list[str] = json.loads((web_dir() / "routes.json").read_text())["prerendered"]
# wcag22aa brings target-size (24px tap targets), which Lighthouse checks too.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
WIDTHS: dict[str, dict[str, Any]] = {
    "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": DESKTOP},
}
CASES = [
    pytest.param(path, width, id=f"{width}:{path}") for path in PRERENDERED for width in WIDTHS
]

# axe leaves some results "needs review" because it cannot always be sure they matter; these two
# always do on our pages (an id referenced by ARIA used twice; aria-label on an element that
# may not carry one, which screen readers ignore), so they fail like violations.
REVIEW_AS_VIOLATION = ["duplicate-id-aria", "aria-prohibited-attr"]

RUN_AXE = """async ([tags, reviewed]) => {
  const results = await window.axe.run(document, {
    runOnly: { type: 'tag', values: tags },
    resultTypes: ['violations', 'incomplete'],
  })
  const review = results.incomplete.filter((r) => reviewed.includes(r.id))
  return [...results.violations, ...review].map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({
      target: n.target.join(' '),
      summary: n.failureSummary || [...n.any, ...n.all, ...n.none].map((c) => c.message).join('; '),
    })),
  }))
}"""


def describe(path: str, width: str, violations: list[dict[str, Any]]) -> str:
    lines = [f"{len(violations)} axe violation(s) on {path} at {width} width:"]
    for violation in violations:
        lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            summary = " ".join(str(node["summary"]).split())
            lines.append(f"    {node['target']}: {summary}")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE_SOURCE.is_file():
        raise RuntimeError("axe-core is not installed: run `npm ci` in webui/")
    return AXE_SOURCE.read_text()


def settle(page: Page) -> None:
    """Loaded, hydrated, catalogue prices filled in (no request in flight), fonts ready."""
    page.wait_for_load_state("networkidle")
    page.evaluate("() => document.fonts.ready.then(() => true)")


@pytest.mark.parametrize(("path", "width"), CASES)
def test_public_page_has_no_accessibility_violations(
    browser: Browser,
    live_server: LiveServer,
    console: ConsoleLog,
    axe_source: str,
    path: str,
    width: str,
) -> None:
    options = WIDTHS[width]
    page = open_page(
        browser,
        console,
        options["viewport"],
        bypass_csp=True,
        **{k: v for k, v in options.items() if k != "viewport"},
    )
    try:
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200
        settle(page)
        page.add_script_tag(content=axe_source)
        violations: list[dict[str, Any]] = page.evaluate(RUN_AXE, [AXE_TAGS, REVIEW_AS_VIOLATION])
    finally:
        page.context.close()
    problems = []
    if violations:
        problems.append(describe(path, width, violations))
    if console.problems:
        problems.append(f"console problems on {path} at {width} width: {console.problems}")
    assert not problems, "\n".join(problems)
