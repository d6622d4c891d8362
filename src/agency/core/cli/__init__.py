"""The Typer plumbing on the kernel: the context module commands get, and commands imported
only when run."""
