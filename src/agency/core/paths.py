"""Where bundled resources live: inside the package when installed or frozen, else in the repo."""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
REPO_DIR = PACKAGE_DIR.parent.parent


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.exists():
            return candidate
    return candidates[0]


def web_dir() -> Path:
    """The built web UI: one `agency/web.zip` in the binary, `agency/web` in a wheel,
    `webui/dist` in a checkout."""
    return _first_existing(
        PACKAGE_DIR / "web.zip", PACKAGE_DIR / "web", REPO_DIR / "webui" / "dist"
    )


def config_dir() -> Path:
    """Default configuration and data files shipped with the program."""
    return _first_existing(PACKAGE_DIR / "config", REPO_DIR / "config")
