"""The one-file binary's spec bundles the files the SDKs open at run time.

PyInstaller follows imports; a file an SDK opens by path is only in the binary when the spec
collects it. The spec is executed here with PyInstaller's build steps replaced by recorders, so
this runs in a second instead of a build; scripts/smoke_binary.py checks the real binary in CI.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import certifi
import stripe

REPO = Path(__file__).resolve().parents[2]
HOOK = REPO / "scripts" / "pyi_rth_ca_certificates.py"


class Recorder:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs
        self.pure = self.scripts = self.binaries = self.datas = ()


def run_spec(tmp_path: Path) -> Recorder:
    """Run agency.spec with PyInstaller's build steps recorded; returns its Analysis."""
    (tmp_path / "webui" / "dist").mkdir(parents=True)
    (tmp_path / "webui" / "dist" / "index.html").write_text("<!doctype html>")
    analyses: list[Recorder] = []

    class Analysis(Recorder):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            analyses.append(self)

    spec = (REPO / "agency.spec").read_text()
    code = compile(spec, str(REPO / "agency.spec"), "exec")
    saved_path = list(sys.path)  # the spec puts its src/ first
    try:
        exec(
            code,
            {
                "SPECPATH": str(tmp_path),
                "workpath": str(tmp_path / "build"),
                "Analysis": Analysis,
                "PYZ": Recorder,
                "EXE": Recorder,
            },
        )
    finally:
        sys.path[:] = saved_path
    [analysis] = analyses
    return analysis


def bundled_files(tmp_path: Path) -> dict[str, str]:
    """{path inside the binary: source file} of the spec's data files."""
    files: dict[str, str] = {}
    for source, dest_dir in run_spec(tmp_path).kwargs["datas"]:
        if os.path.isfile(source):
            files[f"{dest_dir}/{os.path.basename(source)}"] = source
    return files


def inside_binary(path: str, package: Any) -> str:
    """Where `path`, a file of `package`, is found in the binary (relative to the bundle)."""
    package_dir = Path(package.__file__).resolve().parent
    return f"{package.__name__}/{Path(path).resolve().relative_to(package_dir).as_posix()}"


def test_the_ca_bundles_the_sdks_open_are_bundled(tmp_path: Path) -> None:
    files = bundled_files(tmp_path)
    # The stripe SDK builds its TLS context from this file as the gateway is created.
    assert inside_binary(stripe.ca_bundle_path, stripe) in files
    # httpx verifies with certifi's bundle.
    assert inside_binary(certifi.where(), certifi) in files


def test_the_ca_certificates_hook_runs_in_the_binary(tmp_path: Path) -> None:
    hooks = run_spec(tmp_path).kwargs["runtime_hooks"]
    # The spec names it under its own directory (here tmp_path stands for the repository).
    assert [Path(h).relative_to(tmp_path) for h in hooks] == [HOOK.relative_to(REPO)]
    assert HOOK.is_file()


def test_the_web_ui_is_bundled_as_one_zip(tmp_path: Path) -> None:
    """One archive, not hundreds of files: the binary unpacks what it holds at every start."""
    import zipfile

    files = bundled_files(tmp_path)
    assert not any(path.startswith("agency/web/") for path in files)
    with zipfile.ZipFile(files["agency/web.zip"]) as archive:
        assert archive.namelist() == ["index.html"]
