"""A job runner in a process of its own, for the tests with several real processes.

    python -m tests.core.jobs_process DATABASE_URL LOG_FILE [--concurrency N] [--hold SECONDS]
        [--lease SECONDS] [--until-empty]

Runs the kinds "record" (appends `run <n> <pid>` to LOG_FILE, after a short random pause) and
"hold" (appends `start <n> <pid>`, sleeps --hold seconds, then `done <n> <pid>`; its lease is
--lease seconds). With --until-empty it exits once there are jobs and none is queued or
running; otherwise it runs until killed. Each line is one `write` on a file opened for
appending, so the lines of two processes never mix.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

from agency.core import db, jobs
from agency.core.modules import JobOptions
from agency.registry import MODULES

MODEL_MODULES = [m.models for m in MODULES if m.models is not None]


def _append(path: Path, line: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, f"{line}\n".encode())
    finally:
        os.close(fd)


async def main(args: argparse.Namespace) -> None:
    log = Path(args.log)

    async def record(payload: dict[str, Any]) -> None:
        await asyncio.sleep(random.random() / 200)
        _append(log, f"run {payload['n']} {os.getpid()}")

    async def hold(payload: dict[str, Any]) -> None:
        _append(log, f"start {payload['n']} {os.getpid()}")
        await asyncio.sleep(args.hold)
        _append(log, f"done {payload['n']} {os.getpid()}")

    await db.init_db(args.url, MODEL_MODULES)
    runner = jobs.JobRunner(
        {"record": record, "hold": hold},
        poll_seconds=0.05,
        options={"hold": JobOptions(lease=timedelta(seconds=args.lease))},
        concurrency=args.concurrency,
    )
    _append(log, f"ready - {os.getpid()}")
    runner.start()
    try:
        while True:
            await asyncio.sleep(0.1)
            if (
                args.until_empty
                and await jobs.Job.all().exists()
                and not await jobs.Job.filter(status__in=[jobs.QUEUED, jobs.RUNNING]).exists()
            ):
                break
    finally:
        await runner.stop()
        await db.close_db()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("log")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--hold", type=float, default=30.0)
    parser.add_argument("--lease", type=float, default=300.0)
    parser.add_argument("--until-empty", action="store_true")
    asyncio.run(main(parser.parse_args()))
