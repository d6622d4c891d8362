"""A TCP proxy on loopback that can take a database away and give it back.

A server pointed at the proxy instead of PostgreSQL sees the database go down when the proxy
closes (its listening port refuses, every open connection is cut) and come back when it reopens
on the same port, while the machine's PostgreSQL keeps serving everyone else. Used by the tests
of an unavailable database (`tests/core/test_database_unavailable.py`) and by `bench/load.py`.
Standard library only.
"""

from __future__ import annotations

import contextlib
import socket
import threading


class TcpProxy:
    def __init__(self, target_host: str, target_port: int, port: int = 0) -> None:
        self.target = (target_host, target_port)
        self.port = port
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._server: socket.socket | None = None

    @property
    def is_open(self) -> bool:
        return self._server is not None

    def open(self) -> None:
        """Listen (on the same port as before, once it has one) and forward connections."""
        if self._server is not None:
            return
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", self.port))
        server.listen(256)
        server.settimeout(0.1)
        self.port = server.getsockname()[1]
        self._server = server
        threading.Thread(target=self._accept, args=(server,), daemon=True).start()

    def close(self) -> None:
        """Stop listening and cut every forwarded connection."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        with self._lock:
            sockets, self._sockets = self._sockets, set()
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _accept(self, server: socket.socket) -> None:
        while self._server is server:
            try:
                client, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            client.settimeout(None)
            upstream.settimeout(None)
            with self._lock:
                if self._server is not server:  # closed meanwhile
                    client.close()
                    upstream.close()
                    return
                self._sockets.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
            with self._lock:
                self._sockets.discard(source)
                self._sockets.discard(sink)
            source.close()  # each socket is the source of one pump: closed once, after use
