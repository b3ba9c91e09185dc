from dataclasses import dataclass, field

from .errors import UnknownSkillError

SKILLS = {"l1", "l2"}

# name; skills; days off
TEAM_SHEET = """
Amara;  l1,l2; sat,sun
Bjorn;  l1;    sun
Chen;   l1,l2; mon
Dalia;  l1;    wed
Emeka;  l1,l2; sat
Farah;  l1;    tue
"""


@dataclass
class Person:
    name: str
    skills: set = field(default_factory=set)
    off: set = field(default_factory=set)
    shifts: int = 0


def load_team(text):
    team = []
    for line in text.strip().splitlines():
        name, skills, off = (part.strip() for part in line.split(";"))
        person = Person(name, set(skills.split(",")), set(off.split(",")) if off else set())
        for skill in person.skills - SKILLS:
            raise UnknownSkillError(name, skill)
        team.append(person)
    return team
