"""The overview's use cases: periods (`periods`), the figures (`figures`), the daily snapshot
(`snapshots`)."""
