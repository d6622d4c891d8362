"""A bare Quart hello-world on granian, embedded exactly as `agency serve` does it.

It is the framework floor for the benchmark: the fastest a Quart route can answer on this
server, so our static layer is judged against it. Run: `python bench/hello_app.py --port 8300`.
"""

from __future__ import annotations

import argparse
from typing import Any

from quart import Quart

app = Quart("hello")


@app.get("/")
async def hello() -> str:
    return "Hello, world!"


def main() -> None:
    from granian.constants import Interfaces
    from granian.log import LogLevels
    from granian.server import Server

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8300)
    args = parser.parse_args()

    def load_app(_target: str) -> Any:
        return app

    # Same options as agency/cli.py `serve`, so only the app differs.
    server = Server(
        target="hello",
        address=args.host,
        port=args.port,
        interface=Interfaces.ASGI,
        workers=1,
        log_access=False,
        log_level=LogLevels.warning,
        respawn_failed_workers=True,
    )
    server.serve(target_loader=load_app)


if __name__ == "__main__":
    main()
