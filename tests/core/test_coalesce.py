"""Coalesced reads: callers arriving together share one read, and every answer
comes from a read that started after its caller arrived."""

from __future__ import annotations

import asyncio
import random

import pytest

from agency.core.web.coalesce import Coalesced


class Reads:
    def __init__(self, delay: float = 0.01) -> None:
        self.delay = delay
        self.started: list[float] = []
        self.fail = False

    async def __call__(self) -> float:
        loop = asyncio.get_running_loop()
        started = loop.time()
        self.started.append(started)
        await asyncio.sleep(self.delay)
        if self.fail:
            raise RuntimeError("database down")
        return started


async def test_a_quiet_caller_gets_a_read_of_its_own() -> None:
    reads = Reads(delay=0)
    shared = Coalesced(reads)
    for _ in range(5):
        await shared()
    assert len(reads.started) == 5


@pytest.mark.parametrize("seed", range(8))
async def test_callers_together_share_reads_none_older_than_their_arrival(seed: int) -> None:
    rng = random.Random(seed)
    reads = Reads(delay=0.005)
    shared = Coalesced(reads)
    loop = asyncio.get_running_loop()

    async def caller(wait: float) -> tuple[float, float]:
        await asyncio.sleep(wait)
        arrived = loop.time()
        return arrived, await shared()

    results = await asyncio.gather(*(caller(rng.uniform(0, 0.03)) for _ in range(60)))
    for arrived, read_started in results:
        assert read_started >= arrived  # the answer's read began after the caller came
    assert len(reads.started) < 30  # sixty callers in about six read times


async def test_a_failed_read_fails_its_callers_and_the_next_read_runs_afresh() -> None:
    reads = Reads()
    shared = Coalesced(reads)
    reads.fail = True
    outcomes = await asyncio.gather(*(shared() for _ in range(5)), return_exceptions=True)
    assert all(isinstance(o, RuntimeError) for o in outcomes)
    reads.fail = False
    assert await shared() == reads.started[-1]


async def test_a_caller_that_gives_up_does_not_cancel_the_shared_read() -> None:
    reads = Reads(delay=0.02)
    shared = Coalesced(reads)
    first = asyncio.ensure_future(shared())  # starts read 1
    await asyncio.sleep(0.005)
    impatient = asyncio.ensure_future(shared())  # both wait for read 2
    patient = asyncio.ensure_future(shared())
    await asyncio.sleep(0.005)
    impatient.cancel()
    first.cancel()
    assert await patient == reads.started[1]
    assert len(reads.started) == 2
