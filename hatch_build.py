"""Build hook: builds the web UI with npm and puts it, and the default config, into the wheel,
so that an installed `agency` is complete. Set AGENCY_SKIP_WEBUI_BUILD=1 to reuse an existing
webui/dist as it is (or none)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent
WEBUI = ROOT / "webui"
DIST = WEBUI / "dist"


def _newest_source_mtime() -> float:
    newest = 0.0
    for folder in ("src", "public", "scripts"):
        for path in (WEBUI / folder).rglob("*"):
            if path.is_file():
                newest = max(newest, path.stat().st_mtime)
    for name in ("package.json", "package-lock.json", "index.html", "vite.config.ts"):
        path = WEBUI / name
        if path.is_file():
            newest = max(newest, path.stat().st_mtime)
    return newest


def build_webui() -> None:
    """Run `npm ci` (when needed) and `npm run build` unless the build is up to date."""
    index = DIST / "index.html"
    if os.environ.get("AGENCY_SKIP_WEBUI_BUILD") == "1":
        return
    if index.is_file() and index.stat().st_mtime >= _newest_source_mtime():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is needed to build the web UI (install Node.js 20 or newer)")
    if not (WEBUI / "node_modules").is_dir():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEBUI, check=True)
    subprocess.run([npm, "run", "build"], cwd=WEBUI, check=True)


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        build_webui()
        if version == "editable":
            return  # an editable install reads webui/dist and config/ from the checkout
        build_data["force_include"][str(DIST)] = "agency/web"
        build_data["force_include"][str(ROOT / "config")] = "agency/config"
