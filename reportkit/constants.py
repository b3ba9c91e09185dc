"""Names and versions shared between modules (defined once)."""

TOOL_NAME = "reportkit"
# issue templates (templates/<name>.md.j2); the first is the library default. The CLI's default is
# AUTO_TEMPLATE: reportkit/report/venue.py picks one of them from what is installed and what the failure involves
TEMPLATE_NAMES = ("torch-spyre", "pytorch", "pytorch-compile", "generic")
DEFAULT_TEMPLATE = TEMPLATE_NAMES[0]
AUTO_TEMPLATE = "auto"
# `reportkit ci` writes the manifest, `reportkit publish` reads it
MANIFEST_NAME = "reportkit-ci.json"
MANIFEST_VERSION = 1
# a failure's fingerprint in the manifest (a bundle's directory name, an issue's marker): hex digits only
FINGERPRINT_PATTERN = r"^[0-9a-fA-F]{8,64}$"
# bundle.json's schema
BUNDLE_SCHEMA_VERSION = 1
# `check --json` and `minimize --json`: each document's schema, numbered like bundle.json's (1 = the first
# published layout; raised when a field changes meaning or goes away, not when one is added)
CHECK_SCHEMA_VERSION = 1
MINIMIZE_SCHEMA_VERSION = 1
