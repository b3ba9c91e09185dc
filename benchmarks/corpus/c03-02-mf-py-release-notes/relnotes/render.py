from .changelog import SECTIONS


def render_markdown(releases):
    lines = ["# Release notes", ""]
    for version, sections in releases:
        lines.append(f"## {version}" + (" (pre-release)" if version.is_prerelease else ""))
        for title in SECTIONS.values():
            for line in sections.get(title, []):
                lines.append(f"- **{title}**: {line}")
        lines.append("")
    return "\n".join(lines) + "\n"
