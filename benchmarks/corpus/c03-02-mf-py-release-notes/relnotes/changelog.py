from collections import defaultdict

SECTIONS = {"breaking": "Breaking changes", "feature": "Features", "bug": "Fixes", "performance": "Performance"}


class Changelog:
    def __init__(self, versions, since=None):
        self.versions = versions  # tag -> Version
        self.since = since
        self.entries = defaultdict(list)

    def add(self, pull):
        section = next((SECTIONS[label] for label in pull["labels"] if label in SECTIONS), None)
        if section is None:
            return
        self.entries[pull["tag"]].append((section, f"{pull['title']} (#{pull['number']})"))

    def releases(self):
        """(version, {section: [lines]}), newest first."""
        ordered = sorted(self.versions.items(), key=lambda item: item[1], reverse=True)
        out = []
        for tag, version in ordered:
            if self.since is not None and version <= self.since:
                continue
            sections = defaultdict(list)
            for section, line in self.entries.get(tag, []):
                sections[section].append(line)
            out.append((version, dict(sections)))
        return out
