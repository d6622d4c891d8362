"""What other modules may use of the analysis (plain functions and data, no Quart): read one
analysis by its id, and the analyses visitors started in a period (the owner's overview).
Analyses cross the module line as `AnalysisOut`, never as ORM rows."""

from agency.modules.analysis.schemas import AnalysisOut
from agency.modules.analysis.service.analyses import get_analysis
from agency.modules.analysis.service.figures import visitor_analyses

__all__ = ["AnalysisOut", "get_analysis", "visitor_analyses"]
