"""Stage 4, *report*: collect evidence about a failure and render it as a bundle and an issue.
"""
