"""Stage 5, *ci*: failed CI jobs to bundles, grouped into one issue per bug, and publishing them.
"""
