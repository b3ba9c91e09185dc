"""Names and versions shared between modules (defined once)."""

TOOL_NAME = "reportkit"
# issue templates (templates/<name>.md.j2); the first is the default
TEMPLATE_NAMES = ("torch-spyre", "pytorch")
DEFAULT_TEMPLATE = TEMPLATE_NAMES[0]
# `reportkit ci` writes the manifest, `reportkit publish` reads it
MANIFEST_NAME = "reportkit-ci.json"
MANIFEST_VERSION = 1
# bundle.json's schema
BUNDLE_SCHEMA_VERSION = 1
