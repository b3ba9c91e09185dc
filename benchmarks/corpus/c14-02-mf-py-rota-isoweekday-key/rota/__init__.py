"""rota: plan the support desk's on-call rota from the team sheet and the weekly coverage table."""
from .days import COVERAGE, day_index
from .errors import RotaError, UnknownSkillError
from .planner import build_rota
from .team import TEAM_SHEET, load_team

__all__ = ["COVERAGE", "TEAM_SHEET", "RotaError", "UnknownSkillError", "build_rota", "day_index", "load_team"]
