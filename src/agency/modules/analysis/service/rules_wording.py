"""The rules report's sentences, by name, from `templates/analysis/rules.toml` (read once, at
first use)."""

from __future__ import annotations

import tomllib
from functools import cache

from agency.core.paths import PACKAGE_DIR

COPY_FILE = PACKAGE_DIR / "templates" / "analysis" / "rules.toml"


@cache
def sentences() -> dict[str, dict[str, str]]:
    """Every sentence of the file: section, then name."""
    with COPY_FILE.open("rb") as file:
        return tomllib.load(file)


def say(key: str, /, **fields: object) -> str:
    """The sentence `key` ("section.name") with its {fields} filled in."""
    section, _, name = key.partition(".")
    return sentences()[section][name].format(**fields)
