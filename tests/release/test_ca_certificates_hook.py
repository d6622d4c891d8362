"""The binary's runtime hook that finds CA certificates for default-context TLS (SMTP) on
machines whose store is not where the bundled OpenSSL looks (scripts/pyi_rth_ca_certificates.py).
"""

from __future__ import annotations

import ssl
from pathlib import Path
from types import ModuleType

from tests.conftest import load_script

HOOK = Path(__file__).resolve().parents[2] / "scripts" / "pyi_rth_ca_certificates.py"
BUNDLED = "/tmp/_MEI123/certifi/cacert.pem"
DEBIAN_BUILT = ssl.DefaultVerifyPaths(
    "/usr/lib/ssl/cert.pem",
    "/usr/lib/ssl/certs",
    "SSL_CERT_FILE",
    "/usr/lib/ssl/cert.pem",
    "SSL_CERT_DIR",
    "/usr/lib/ssl/certs",
)


def hook() -> ModuleType:
    """The hook's module; outside a binary (no sys._MEIPASS) importing it changes nothing."""
    return load_script(HOOK)


def choose(files: set[str], dirs: frozenset[str] = frozenset(), **environ: str) -> str | None:
    return hook().ca_file_to_use(
        environ, DEBIAN_BUILT, BUNDLED, isfile=files.__contains__, isdir=dirs.__contains__
    )


def test_a_machine_where_openssl_finds_its_store_is_left_alone() -> None:
    assert choose({"/usr/lib/ssl/cert.pem"}) is None
    assert choose(set(), frozenset({"/usr/lib/ssl/certs"})) is None


def test_a_fedora_machine_uses_its_own_store() -> None:
    assert choose({"/etc/pki/tls/certs/ca-bundle.crt"}) == "/etc/pki/tls/certs/ca-bundle.crt"


def test_a_machine_without_a_store_uses_the_bundled_certifi() -> None:
    assert choose(set()) == BUNDLED


def test_the_operators_setting_wins() -> None:
    assert choose(set(), SSL_CERT_FILE="/srv/ca.pem") is None
    assert choose(set(), SSL_CERT_DIR="/srv/certs") is None
