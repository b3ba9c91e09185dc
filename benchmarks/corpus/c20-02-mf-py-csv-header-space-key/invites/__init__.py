"""Invitations for the team offsite: guests from the sign-up form's CSV export, one message each."""

from invites.contacts import load_guests
from invites.outbox import Message, Outbox, build_invites
from invites.sample import SAMPLE_EXPORT
from invites.templates import render

__all__ = ["Message", "Outbox", "SAMPLE_EXPORT", "build_invites", "load_guests", "render"]
