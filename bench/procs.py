"""Process helpers the bench scripts share (run as `python bench/<script>.py`, so this
directory is on the import path)."""

from __future__ import annotations

import os
import signal
import subprocess


def stop_group(process: subprocess.Popen[bytes], timeout: float = 15.0) -> None:
    """SIGTERM to a server started in its own session (`start_new_session=True`) and every
    process of its group, then SIGKILL if it is still there after `timeout` seconds."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:  # it exited already (the caller says why): nothing to stop
        process.wait()
        return
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
