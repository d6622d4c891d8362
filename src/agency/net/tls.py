"""One TLS context per process for the outbound clients built on httpx."""

from __future__ import annotations

import functools
import ssl


@functools.cache
def tls_context() -> ssl.SSLContext:
    """One TLS context per process: loading the CA bundle costs tens of milliseconds of CPU,
    which each new client would pay (httpx builds one even for an http:// address) on the event
    loop the site is served from."""
    import httpx

    return httpx.create_ssl_context()
