"""The rules' words pinned: every variant's report and critical issues over a fixed set of page
facts (hand-made ones for the branches, then seeded random ones) must match
`fixtures/rules_golden.json` exactly. A copy change updates the fixture on purpose:
`AGENCY_REGOLD=1 pytest tests/analysis/test_rules_golden.py`."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from agency.modules.analysis.schemas import AnalysisVariant, PageFactsOut
from agency.modules.analysis.service import rules_wording
from agency.modules.analysis.service.analysis_rules import critical_issues, rules_report
from agency.modules.speedtest.api import SpeedResultOut
from tests.analysis.test_analysis_rules import (
    ANALYTICS,
    BOOKING,
    CHAT,
    TRICKY,
    TYPES,
    VARIANTS,
    bare,
    perfect,
    speed_result,
)

GOLDEN = Path(__file__).parent / "fixtures" / "rules_golden.json"
SPEEDS: list[tuple[str, SpeedResultOut | None]] = [
    ("none", None),
    ("fast", speed_result(97, 900, 40)),
    ("mid", speed_result(72, 2600, 320)),
    ("slow", speed_result(31, 9800, 1400)),
    ("edge", speed_result(89, 2000, 300)),
]
LONG_TITLE = "Smile Dental Berlin — gentle dentistry, implants, cleaning and more in Berlin-Mitte"
LONG_META = (
    "We are a family dental practice in Berlin-Mitte offering gentle check-ups, cleaning, "
    "implants, whitening and emergency appointments six days a week, with evening hours too"
)
TEXTS = [*TRICKY, "Call us", "Get a quote", "Book now!", LONG_TITLE, LONG_META, "Hello “world”"]


def _cases() -> list[tuple[str, PageFactsOut]]:
    p, b = perfect(), bare()
    hand: list[tuple[str, dict[str, Any]]] = [
        ("perfect", {}),
        ("no-title", {"title": None}),
        ("long-title", {"title": LONG_TITLE}),
        ("no-meta", {"meta_description": None}),
        ("long-meta", {"meta_description": LONG_META}),
        ("meta-no-stop", {"meta_description": "Gentle dentistry in Berlin"}),
        ("no-cta", {"calls_to_action": []}),
        ("one-cta", {"calls_to_action": ["Book an appointment"]}),
        ("many-cta", {"calls_to_action": [f"Action {i}" for i in range(9)]}),
        ("no-forms", {"forms": 0, "form_fields": 0}),
        ("many-fields", {"forms": 2, "form_fields": 14}),
        ("no-booking", {"booking_widgets": []}),
        ("two-booking", {"booking_widgets": ["Calendly", "Doctolib"]}),
        ("no-chat", {"chat_widgets": []}),
        ("no-analytics", {"analytics": []}),
        ("many-third", {"analytics": ["Google Analytics 4", "Hotjar", "Meta Pixel"]}),
        ("no-viewport", {"viewport": False}),
        ("missing-alt-one", {"images_without_alt": 1}),
        ("missing-alt-many", {"images": 30, "images_without_alt": 7}),
        ("two-h1", {"h1": ["One", "Two"]}),
        ("no-h1", {"h1": [], "headings": 1}),
        ("heavy-scripts", {"scripts": 25, "script_kb": 220}),
        ("no-https", {"https": False, "final_url": "http://client.example/"}),
        ("http-404", {"http_status": 404}),
        ("no-contact", {"phone": False, "email": False, "forms": 0, "form_fields": 0}),
        ("no-lang", {"language": None}),
        ("no-og-sd", {"open_graph": False, "structured_data": []}),
        ("tricky-title", {"title": "No booking fees", "h1": ["Add chat to your life"]}),
    ]
    cases = [(name, p.model_copy(update=update)) for name, update in hand]
    cases += [
        ("bare", b),
        ("bare-one-form", b.model_copy(update={"forms": 1, "form_fields": 3, "email": True})),
        ("bare-https-500", b.model_copy(update={"https": True, "http_status": 500})),
        ("bare-og", b.model_copy(update={"open_graph": True, "analytics": ["Matomo"]})),
    ]
    rng = random.Random(25)
    for i in range(24):
        cases.append((f"random-{i}", _random_facts(rng)))
    return cases


def _random_facts(rng: random.Random) -> PageFactsOut:
    images = rng.randint(0, 40)
    https = rng.random() < 0.5

    def text() -> str | None:
        return None if rng.random() < 0.3 else rng.choice(TEXTS)

    def some(pool: list[str], most: int) -> list[str]:
        return rng.sample(pool, rng.randint(0, most))

    return PageFactsOut(
        final_url=("https" if https else "http") + "://client.example/",
        http_status=rng.choice([200, 200, 200, 203, 404, 500]),
        title=text(),
        meta_description=text(),
        h1=[rng.choice(TEXTS) for _ in range(rng.randint(0, 3))],
        headings=rng.randint(0, 30),
        calls_to_action=[rng.choice(TEXTS) for _ in range(rng.randint(0, 10))],
        forms=rng.randint(0, 3),
        form_fields=rng.randint(0, 20),
        phone=rng.random() < 0.5,
        email=rng.random() < 0.5,
        structured_data=some(TYPES, 3),
        open_graph=rng.random() < 0.5,
        viewport=rng.random() < 0.5,
        language=rng.choice([None, "en", "de-DE", "fr"]),
        images=images,
        images_without_alt=rng.randint(0, images),
        scripts=rng.randint(0, 40),
        script_kb=rng.randint(0, 400),
        booking_widgets=some(BOOKING, 2),
        chat_widgets=some(CHAT, 2),
        analytics=some(ANALYTICS, 3),
        https=https,
    )


def _output() -> dict[str, Any]:
    out: dict[str, Any] = {}
    variants: list[AnalysisVariant] = VARIANTS
    for name, facts in _cases():
        out[name] = {
            variant: {
                "report": rules_report(facts, variant, "client.example").model_dump(mode="json"),
                "critical": {
                    label: critical_issues(facts, speed, variant) for label, speed in SPEEDS
                },
            }
            for variant in variants
        }
    out["no-facts"] = {
        variant: {label: critical_issues(None, speed, variant) for label, speed in SPEEDS}
        for variant in variants
    }
    return out


def test_the_rules_reproduce_the_golden_output() -> None:
    got = json.loads(json.dumps(_output(), ensure_ascii=False))
    if os.environ.get("AGENCY_REGOLD"):
        GOLDEN.parent.mkdir(exist_ok=True)
        lines = [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in got.items()]
        GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n")  # a line per page
    want = json.loads(GOLDEN.read_text())
    assert got.keys() == want.keys()
    for name in want:
        assert got[name] == want[name], name


def test_every_sentence_of_the_copy_file_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fact sets above reach every named sentence: none is dead copy."""
    used: set[str] = set()

    class Section(dict[str, str]):
        def __init__(self, name: str, items: dict[str, str]) -> None:
            super().__init__(items)
            self.name = name

        def __getitem__(self, key: str) -> str:
            used.add(f"{self.name}.{key}")
            return super().__getitem__(key)

    copy = rules_wording.sentences()
    recording = {name: Section(name, items) for name, items in copy.items()}
    monkeypatch.setattr(rules_wording, "sentences", lambda: recording)
    _output()
    assert used == {f"{name}.{key}" for name, items in copy.items() for key in items}
