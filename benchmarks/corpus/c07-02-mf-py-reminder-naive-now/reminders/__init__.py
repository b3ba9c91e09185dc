"""Task reminders: load the open tasks, find the ones due soon, write the reminder mails."""
from .clock import reference_time
from .schedule import due_soon, render_digest
from .store import load_tasks

__all__ = ["due_soon", "load_tasks", "reference_time", "render_digest"]
