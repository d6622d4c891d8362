"""What other modules may use of the overview (none does: it is the top layer): the overview of
a period and the stored daily snapshots."""

from agency.modules.overview.schemas import OverviewOut, SnapshotOut
from agency.modules.overview.service.figures import overview_for
from agency.modules.overview.service.snapshots import history as snapshot_history

__all__ = ["OverviewOut", "SnapshotOut", "overview_for", "snapshot_history"]
