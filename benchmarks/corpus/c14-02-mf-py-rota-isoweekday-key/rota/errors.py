class RotaError(Exception):
    """A rota that cannot be planned as asked (shown to the planner, exit status 2)."""


class UnknownSkillError(RotaError):
    def __init__(self, person, skill):
        super().__init__(f"{person}: unknown skill {skill!r}")
        self.person, self.skill = person, skill
