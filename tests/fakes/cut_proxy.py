"""A TCP proxy on loopback, in the test's own event loop, that cuts PostgreSQL away at a chosen
moment of the conversation, not only when the test says so.

`tcp_proxy.TcpProxy` (threads) cuts when the test calls `close`, wherever the client is. This
one can also cut at the worst moment for a job runner: asyncpg ends a transaction with the
simple query `COMMIT;` (one `Q` message). `cut_after_commit()` arms the proxy: the next COMMIT
is passed on to the server, and when the server's answer comes back (so the transaction is
committed) the proxy drops that answer and cuts: every connection is reset and the port refuses
new ones until `open()`. The client sent its COMMIT and lost its connection; it cannot know
that the transaction committed. The proxy declines a client's request for TLS (or GSSAPI)
encryption, as a server without it does, so that it sees the conversation whatever the
server's settings. Standard library only.
"""

from __future__ import annotations

import asyncio
import contextlib

# PostgreSQL's simple query message for asyncpg's "COMMIT;": type, length (itself included),
# the query and its NUL.
COMMIT_MESSAGE = b"Q" + (4 + len(b"COMMIT;\0")).to_bytes(4, "big") + b"COMMIT;\0"
# What a client may send before its startup message: SSLRequest and GSSENCRequest (length 8,
# then the request's code).
ENCRYPTION_REQUESTS = {
    (8).to_bytes(4, "big") + (80877103).to_bytes(4, "big"),
    (8).to_bytes(4, "big") + (80877104).to_bytes(4, "big"),
}


class _Link:
    """One client connection and its connection to the server."""

    def __init__(self, client: asyncio.StreamWriter, server: asyncio.StreamWriter) -> None:
        self.client = client
        self.server = server
        self.committing = False

    def abort(self) -> None:
        for writer in (self.client, self.server):
            writer.transport.abort()


class CutProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self.cuts = 0
        self._server: asyncio.Server | None = None
        self._links: set[_Link] = set()
        self._armed: asyncio.Event | None = None

    @property
    def is_open(self) -> bool:
        return self._server is not None

    async def open(self) -> None:
        """Listen (on the same port as before, once it has one) and forward connections."""
        if self._server is not None:
            return
        self._server = await asyncio.start_server(
            self._serve, "127.0.0.1", self.port, reuse_address=True
        )
        self.port = self._server.sockets[0].getsockname()[1]

    def close(self) -> None:
        """Cut now: stop listening and reset every forwarded connection."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
            self.cuts += 1
        links, self._links = self._links, set()
        for link in links:
            link.abort()

    def cut_after_commit(self) -> asyncio.Event:
        """Cut when the server answers the next COMMIT (the answer never reaches the client);
        the event is set once it has."""
        self._armed = asyncio.Event()
        return self._armed

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            first = await reader.readexactly(8)
            while first in ENCRYPTION_REQUESTS:
                writer.write(b"N")  # no encryption here: go on in plain text
                first = await reader.readexactly(8)
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except (OSError, asyncio.IncompleteReadError):
            writer.transport.abort()
            return
        server_writer.write(first)
        link = _Link(writer, server_writer)
        if self._server is None:  # cut meanwhile
            link.abort()
            return
        self._links.add(link)
        try:
            await asyncio.gather(
                self._to_server(reader, link), self._to_client(server_reader, link)
            )
        finally:
            self._links.discard(link)
            link.abort()

    async def _to_server(self, reader: asyncio.StreamReader, link: _Link) -> None:
        tail = b""
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                armed = self._armed
                if armed is not None and not armed.is_set() and COMMIT_MESSAGE in tail + data:
                    link.committing = True
                tail = data[-len(COMMIT_MESSAGE) :]
                link.server.write(data)
                await link.server.drain()
        link.server.transport.abort()

    async def _to_client(self, reader: asyncio.StreamReader, link: _Link) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                if link.committing:
                    # The server has committed and answered: the answer is lost with everything.
                    armed = self._armed
                    self.close()
                    if armed is not None:
                        armed.set()
                    return
                link.client.write(data)
                await link.client.drain()
        link.client.transport.abort()
