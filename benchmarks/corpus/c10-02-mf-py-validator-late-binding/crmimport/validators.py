"""One check per field: a callable that returns None for a good value, else what is wrong with it."""
import re


def check_value(spec, value):
    if not value:
        return "is required" if spec.required else None
    if spec.pattern and not re.fullmatch(spec.pattern, value):
        return f"{value!r} is not well-formed"
    if spec.choices and value not in spec.choices:
        return f"{value!r} is not one of {', '.join(spec.choices)}"
    if spec.integer:
        if not value.isdigit():
            return f"{value!r} is not a whole number"
        if not spec.lo <= int(value) <= spec.hi:
            return f"{value} is outside {spec.lo}..{spec.hi}"
    return None


def build_validators(fields):
    checks = {}
    for name, spec in fields.items():
        checks[name] = lambda value: check_value(spec, value)
    return checks
