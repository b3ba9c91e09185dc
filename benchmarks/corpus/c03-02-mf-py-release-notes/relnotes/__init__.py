"""relnotes: turn tags and merged pull requests into release notes."""
from .changelog import Changelog
from .render import render_markdown
from .versions import Version, parse_tag

__all__ = ["Changelog", "Version", "parse_tag", "render_markdown"]
