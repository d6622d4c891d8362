"""Audit the production Python dependencies for known vulnerabilities (pip-audit).

The audited set is what `pip install agency` brings, at the versions installed in this
interpreter's environment: the closure of agency's requirements (with the extras it names, never
the `dev` extra), pinned. Developer tools (pytest, playwright, pyinstaller...) are not in it.

An audit that could not look anything up must not pass as "No known vulnerabilities found":
- pip-audit runs with `--strict`, so a dependency the advisory service cannot answer for (not
  found, no network, an error) fails the audit instead of being skipped with a warning;
- first, a canary: the service must report the advisory of a known vulnerable release (CANARY).
  A mirror or proxy that answers without advisory data would otherwise pass everything.

With `--npm DIR`, `npm audit --omit=dev --audit-level=high` then audits the web UI's
production packages in DIR, read the same way: an error from the registry's audit endpoint is
"not answering", never a pass.

Exit status: 0 audited and clean, 1 a vulnerability found (or a dependency the service could not
answer for), 2 the advisory service is not answering, so nothing was audited. CI (`.ci/run`) fails
on 1 and reports 2 loudly as "not performed" (the machines CI runs on reach the package
registries but not their advisory endpoints); AGENCY_AUDIT_REQUIRED=1 makes 2 fail CI too.

Usage: .venv/bin/python scripts/audit_deps.py [--npm DIR] [pip-audit options, e.g. --format json]
Accepted advisories go in IGNORED below, each with its reason (none today).
"""

from __future__ import annotations

import importlib.metadata as metadata
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from packaging.requirements import Requirement

PROJECT = "agency"
# Advisory id -> why it does not apply or cannot be fixed yet. Passed as --ignore-vuln.
IGNORED: dict[str, str] = {}
# A release with a long-published advisory (jinja2 < 2.10.1: sandbox escape, CVE-2019-10906,
# PYSEC-2019-217): the advisory service must report it, or it is not really answering.
CANARY = ("jinja2", "2.10")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def production_closure(project: str = PROJECT) -> dict[str, str]:
    """Every distribution `project` needs at run time, canonical name -> installed version."""
    found: dict[str, str] = {}
    todo: list[tuple[str, frozenset[str]]] = [(project, frozenset())]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        name, extras = todo.pop()
        if (canonical(name), extras) in seen:
            continue
        seen.add((canonical(name), extras))
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise SystemExit(f"audit: {name} is required but not installed") from None
        found[canonical(name)] = dist.version
        for line in dist.requires or []:
            req = Requirement(line)
            wanted = extras or frozenset({""})
            if req.marker is not None and not any(
                req.marker.evaluate({"extra": extra}) for extra in wanted
            ):
                continue
            todo.append((req.name, frozenset(req.extras)))
    found.pop(canonical(project), None)  # our own package is not on PyPI
    return found


def pip_audit(pins: dict[str, str], workdir: str, *args: str) -> list[str]:
    """The pip-audit command line over exactly these pinned distributions."""
    requirements = Path(workdir) / f"requirements-{len(pins)}.txt"
    requirements.write_text("".join(f"{n}=={v}\n" for n, v in sorted(pins.items())))
    return [
        sys.executable,
        "-m",
        "pip_audit",
        "--strict",
        "--progress-spinner",
        "off",
        "--no-deps",
        "--disable-pip",
        "--requirement",
        str(requirements),
        *args,
    ]


def canary_problem(argv: list[str]) -> str | None:
    """Why the advisory service cannot be trusted to answer, or None when it reports CANARY."""
    name, version = CANARY
    with tempfile.TemporaryDirectory() as workdir:
        result = subprocess.run(
            pip_audit({name: version}, workdir, *argv, "--format", "json"),
            capture_output=True,
            text=True,
        )
    try:
        report = json.loads(result.stdout)
        found = [d for d in report["dependencies"] if d["name"] == name and d.get("vulns")]
    except (ValueError, KeyError, TypeError):
        return f"no answer for {name} {version}:\n{result.stderr.strip()}"
    if not found:
        return f"it reports no advisory for {name} {version}, which has published ones"
    return None


def npm_audit(webui: str) -> int:
    """npm audit of the production packages: 0 clean, 1 high/critical advisories, 2 no answer."""
    result = subprocess.run(
        ["npm", "audit", "--omit=dev", "--audit-level=high", "--json"],
        cwd=webui,
        capture_output=True,
        text=True,
    )
    try:
        report = json.loads(result.stdout)
        counts = report["metadata"]["vulnerabilities"]
    except (ValueError, KeyError, TypeError):
        detail = result.stdout.strip() or result.stderr.strip()
        print(f"FAIL: the npm audit endpoint is not answering:\n{detail[:600]}", file=sys.stderr)
        return 2
    serious = int(counts.get("high", 0)) + int(counts.get("critical", 0))
    print(f"npm audit (production packages): {counts}", flush=True)
    if serious:
        subprocess.call(["npm", "audit", "--omit=dev", "--audit-level=high"], cwd=webui)
        print(f"FAIL: {serious} high or critical npm advisories (see above)", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str]) -> int:
    npm_dir: str | None = None
    if "--npm" in argv:
        at = argv.index("--npm")
        npm_dir, argv = argv[at + 1], argv[:at] + argv[at + 2 :]
    python_code = python_audit(argv)
    if npm_dir is None:
        return python_code
    npm_code = npm_audit(npm_dir)
    # A vulnerability found anywhere outranks a service that did not answer.
    return 1 if 1 in (python_code, npm_code) else max(python_code, npm_code)


def python_audit(argv: list[str]) -> int:
    problem = canary_problem(argv)
    if problem is not None:
        print(f"FAIL: the advisory service is not answering: {problem}", file=sys.stderr)
        return 2
    print(f"advisory service answers (it knows {' '.join(CANARY)} is vulnerable)", flush=True)
    pins = production_closure()
    print(f"pip-audit over {len(pins)} production dependencies", flush=True)
    for vuln, reason in IGNORED.items():
        print(f"  ignoring {vuln}: {reason}", flush=True)
    ignores = (arg for vuln in IGNORED for arg in ("--ignore-vuln", vuln))
    with tempfile.TemporaryDirectory() as workdir:
        code = subprocess.call(pip_audit(pins, workdir, *ignores, *argv))
    if code != 0:
        print(
            "FAIL: the Python dependency audit found a vulnerability or could not reach the "
            "advisory service (see above)",
            file=sys.stderr,
        )
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
