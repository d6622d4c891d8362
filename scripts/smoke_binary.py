"""Smoke test of the one-file binary: started in an empty directory with no configuration, it
must create its database and answer `/` (the prerendered home page) and `/api/health`."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HEADLINE = "Your Website. Live in Minutes."
START_LIMIT_SECONDS = 3.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=2) as response:
        return response.status, response.read().decode()


def main(binary: str) -> int:
    binary_path = Path(binary).resolve()
    port = free_port()
    with tempfile.TemporaryDirectory() as empty_dir:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
        started = time.monotonic()
        process = subprocess.Popen(
            [str(binary_path), "serve", "--port", str(port)], cwd=empty_dir, env=env
        )
        try:
            health = None
            while time.monotonic() - started < 30:
                try:
                    status, body = get(f"http://127.0.0.1:{port}/api/health")
                    if status == 200:
                        health = json.loads(body)
                        break
                except OSError:
                    time.sleep(0.05)
            elapsed = time.monotonic() - started
            if health is None:
                print("FAIL: /api/health never answered", file=sys.stderr)
                return 1
            print(f"/api/health answered after {elapsed:.2f} s: {health}")
            status, home = get(f"http://127.0.0.1:{port}/")
            if status != 200 or HEADLINE not in home:
                print("FAIL: / is not the prerendered home page", file=sys.stderr)
                return 1
            print(f"/ answered 200 with the home headline ({len(home)} bytes)")
            if not (Path(empty_dir) / "data" / "agency.db").is_file():
                print("FAIL: no SQLite database was created in ./data", file=sys.stderr)
                return 1
            if elapsed > START_LIMIT_SECONDS:
                print(f"FAIL: start-up took {elapsed:.2f} s (limit {START_LIMIT_SECONDS} s)")
                return 1
            print("binary smoke test passed")
            return 0
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "dist/agency"))
