"""reportkit: minimize failing PyTorch / Torch-Spyre scripts and bundle them into bug reports.

Pipeline stages, one module each, plain data classes between them:

    runner (run) -> signature -> reduce -> collect -> render -> publish
"""

__version__ = "0.1.0"
