"""The dependency audit in CI (scripts/audit_deps.py): it audits what production installs, and an
audit that could not look anything up fails instead of passing.

pip-audit asks https://pypi.org/pypi/<name>/<version>/json. Here it goes through an HTTPS proxy on
loopback that answers as pypi.org (a certificate made for the test, trusted through
REQUESTS_CA_BUNDLE), so each way the advisory service can fail is played without the network.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import ssl
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import load_script

# The audit script, pip-audit and a fake npm run as subprocesses: left out of the fast lane.
pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "audit_deps.py"
ADVISORY = {
    "id": "PYSEC-0000-1",
    "aliases": ["CVE-0000-1"],
    "summary": "A made-up advisory",
    "fixed_in": ["99.0"],
    "withdrawn": None,
}
# (name, version) -> (HTTP status, JSON body)
Answer = Callable[[str, str], tuple[int, dict[str, object]]]


def audit_script() -> ModuleType:
    return load_script(SCRIPT)


def test_the_audited_set_is_the_production_closure() -> None:
    pins = audit_script().production_closure()
    # Direct requirements, a requirement's requirement, and one only an extra brings.
    assert {"stripe", "aiosmtplib", "httpx", "certifi", "asyncpg", "pydantic"} <= pins.keys()
    # Developer tools are not shipped, so not audited; our own package is not on PyPI.
    assert not {"pytest", "playwright", "pyinstaller", "pip-audit", "mypy", "agency"} & pins.keys()
    assert all(version[0].isdigit() for version in pins.values())


def _read_head(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def _serve(client: socket.socket, context: ssl.SSLContext, answer: Answer) -> None:
    with contextlib.suppress(OSError), client:
        _read_head(client)  # CONNECT pypi.org:443
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        with context.wrap_socket(client, server_side=True) as tls:
            head = _read_head(tls).decode()
            match = re.match(r"GET /pypi/([^/]+)/([^/]+)/json ", head)
            status, body = answer(*match.groups()) if match else (404, {})
            payload = json.dumps(body).encode()
            tls.sendall(
                f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n".encode()
                + payload
            )


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("cert")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=pypi.org",
            "-addext",
            "subjectAltName=DNS:pypi.org",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@contextlib.contextmanager
def fake_pypi(certificate: tuple[Path, Path], answer: Answer) -> Iterator[int]:
    """An HTTPS proxy on loopback that answers every pypi.org request with `answer`."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certificate)
    listener = socket.create_server(("127.0.0.1", 0))
    stopping = threading.Event()

    def accept() -> None:
        while not stopping.is_set():
            with contextlib.suppress(OSError):
                client, _ = listener.accept()
                threading.Thread(target=_serve, args=(client, context, answer)).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stopping.set()
        listener.close()


def run_audit(proxy_port: int, certificate: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("no_proxy", "all_proxy")}
    env["HTTPS_PROXY"] = env["https_proxy"] = f"http://127.0.0.1:{proxy_port}"
    env["REQUESTS_CA_BUNDLE"] = str(certificate)
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--cache-dir", str(cache), "--timeout", "10"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def knows_the_canary(then: Answer) -> Answer:
    def answer(name: str, version: str) -> tuple[int, dict[str, object]]:
        if (name, version) == ("jinja2", "2.10"):
            return 200, {"info": {"name": name}, "vulnerabilities": [ADVISORY]}
        return then(name, version)

    return answer


def no_advisory(name: str, version: str) -> tuple[int, dict[str, object]]:
    return 200, {"info": {"name": name, "version": version}, "vulnerabilities": []}


def one_advisory_for_stripe(name: str, version: str) -> tuple[int, dict[str, object]]:
    if name == "stripe":
        return 200, {"info": {"name": name}, "vulnerabilities": [ADVISORY]}
    return no_advisory(name, version)


CASES: dict[str, tuple[Answer, int, str]] = {
    # What this machine's PyPI proxy does: the per-version JSON is 404, so nothing is audited.
    "not found": (lambda _n, _v: (404, {}), 2, "not answering"),
    # A mirror that serves the JSON without advisory data.
    "no advisory data": (no_advisory, 2, "reports no advisory for jinja2 2.10"),
    # The canary is known, but a production dependency cannot be looked up.
    "one dependency not found": (
        knows_the_canary(lambda n, v: (404, {}) if n == "httpx" else no_advisory(n, v)),
        1,
        "httpx",
    ),
    "an advisory": (knows_the_canary(one_advisory_for_stripe), 1, "PYSEC-0000-1"),
    "all clear": (knows_the_canary(no_advisory), 0, "No known vulnerabilities found"),
}


@pytest.mark.parametrize("case", CASES)
def test_the_audit_passes_only_when_the_service_answered_and_found_nothing(
    case: str, certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    answer, code, shown = CASES[case]
    with fake_pypi(certificate, answer) as port:
        result = run_audit(port, certificate[0], tmp_path / "cache")
    output = result.stdout + result.stderr
    assert result.returncode == code, output
    assert shown in output


def test_an_unreachable_advisory_service_fails_the_audit(
    certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    with socket.socket() as sock:  # a loopback port nobody listens on
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    result = run_audit(closed, certificate[0], tmp_path / "cache")
    assert result.returncode != 0
    assert "not answering" in result.stderr


NPM_ANSWERS = {
    # What npm 11 prints with --json when the registry refuses the bulk advisory endpoint.
    "endpoint refused": (
        {"message": "405 Method Not Allowed", "statusCode": 405, "error": {"summary": ""}},
        2,
    ),
    "high advisory": (
        {"metadata": {"vulnerabilities": {"low": 0, "moderate": 1, "high": 1, "critical": 0}}},
        1,
    ),
    "only moderate": (
        {"metadata": {"vulnerabilities": {"low": 2, "moderate": 1, "high": 0, "critical": 0}}},
        0,
    ),
}


@pytest.mark.parametrize("case", NPM_ANSWERS)
def test_npm_audit_reads_no_answer_as_not_audited(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report, code = NPM_ANSWERS[case]
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    npm = fake_bin / "npm"
    npm.write_text(f"#!/bin/sh\ncat <<'JSON'\n{json.dumps(report)}\nJSON\nexit 1\n")
    npm.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake_bin}{os.pathsep}{os.environ['PATH']}")
    assert audit_script().npm_audit(str(tmp_path)) == code
