"""What other modules may use of the analysis (plain functions and data, no Quart): read one
analysis by its id. Analyses cross the module line as `AnalysisOut`, never as ORM rows."""

from agency.modules.analysis.schemas import AnalysisOut
from agency.modules.analysis.service.analyses import get_analysis

__all__ = ["AnalysisOut", "get_analysis"]
