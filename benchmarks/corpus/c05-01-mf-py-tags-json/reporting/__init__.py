"""Ticket reporting helpers."""
