"""Errors that end a command with one clear message instead of a traceback."""

from __future__ import annotations


class UserError(Exception):
    """Bad input or an unusable situation: the CLI prints the message and exits with ``exit_code``."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
