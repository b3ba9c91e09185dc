from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    required: bool = True
    pattern: str = None  # the whole value must match
    choices: tuple = ()
    integer: bool = False
    lo: int = None
    hi: int = None


CONTACT_FIELDS = {
    "email": Field(pattern=r"[^@\s]+@[^@\s]+\.[a-z]{2,}"),
    "name": Field(pattern=r"\S.*"),
    "age": Field(required=False, integer=True, lo=16, hi=120),
    "country": Field(choices=("BE", "DE", "FR", "NL")),
}
