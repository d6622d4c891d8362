"""Spec §9's derived scores of the analysis (issue 15)."""

from __future__ import annotations

from agency.modules.insights.schemas import (
    AnalysisReportOut,
    AnalysisScoresOut,
    AnalysisVariant,
    SpeedResultOut,
)


def derive_scores(report: AnalysisReportOut, speed: SpeedResultOut | None) -> AnalysisScoresOut:
    raise NotImplementedError


def score_label(score: int, variant: AnalysisVariant) -> str:
    raise NotImplementedError
