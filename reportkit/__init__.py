"""reportkit: minimize failing PyTorch / Torch-Spyre scripts and bundle them into bug reports.

One package per pipeline stage, plain data classes between them; imports point down, never up:

    cli -> ci -> report -> reduce -> failure -> run      (io, errors, constants, cancel, redact: the ground floor)
"""

__version__ = "0.1.0"
