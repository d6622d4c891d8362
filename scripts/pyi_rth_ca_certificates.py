"""PyInstaller runtime hook of the one-file binary (agency.spec): CA certificates for TLS clients
that use the default context, such as aiosmtplib's TLS and STARTTLS to the SMTP server.

The binary carries the build machine's OpenSSL, which looks for the system's CA certificates
where that machine keeps them (OPENSSLDIR, /usr/lib/ssl on Debian and Ubuntu). A machine that
keeps them elsewhere (Fedora and RHEL: /etc/pki) would trust nothing and every TLS handshake
would fail verification. When neither SSL_CERT_FILE nor SSL_CERT_DIR is set and OpenSSL's default
locations hold nothing, SSL_CERT_FILE is pointed at the machine's own bundle if one of the usual
places has it, else at certifi's bundle inside the binary. An operator's SSL_CERT_FILE or
SSL_CERT_DIR always wins. The stripe SDK names its own bundle and is not affected; httpx clients
read SSL_CERT_FILE too, so there they then use the same file instead of certifi's.
"""

from __future__ import annotations

import os
import ssl
import sys
from collections.abc import Callable, Mapping

# Where distributions keep the system's CA bundle, most common first.
SYSTEM_BUNDLES = (
    "/etc/ssl/certs/ca-certificates.crt",  # Debian, Ubuntu, Alpine, Arch, Gentoo
    "/etc/pki/tls/certs/ca-bundle.crt",  # Fedora, RHEL, CentOS, Amazon Linux
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  # RHEL 7 and later
    "/etc/ssl/ca-bundle.pem",  # openSUSE
    "/etc/ssl/cert.pem",  # Alpine, BSDs
)


def ca_file_to_use(
    environ: Mapping[str, str],
    defaults: ssl.DefaultVerifyPaths,
    bundled: str,
    isfile: Callable[[str], bool] = os.path.isfile,
    isdir: Callable[[str], bool] = os.path.isdir,
) -> str | None:
    """The CA file to put in SSL_CERT_FILE, or None to leave OpenSSL's defaults alone."""
    if environ.get("SSL_CERT_FILE") or environ.get("SSL_CERT_DIR"):
        return None
    if (defaults.openssl_cafile and isfile(defaults.openssl_cafile)) or (
        defaults.openssl_capath and isdir(defaults.openssl_capath)
    ):
        return None
    return next((path for path in SYSTEM_BUNDLES if isfile(path)), bundled)


def _install() -> None:
    bundle_dir = getattr(sys, "_MEIPASS", None)
    if bundle_dir is None:
        return
    chosen = ca_file_to_use(
        os.environ,
        ssl.get_default_verify_paths(),
        os.path.join(bundle_dir, "certifi", "cacert.pem"),
    )
    if chosen is not None:
        os.environ["SSL_CERT_FILE"] = chosen


_install()
