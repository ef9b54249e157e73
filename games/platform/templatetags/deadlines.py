"""`{% deadlines_late %}`: the hosts' admin index says so when rounds do not close on time (issue 28.6)."""

from __future__ import annotations

from django import template

from .. import heartbeats

register = template.Library()


@register.simple_tag
def deadlines_late() -> str:
    """A sentence for the hosts when the sweep is late or a due round waits ("" when deadlines are on time).
    A few rows read, whatever the number of games: the admin index stays as quick as it was."""
    return heartbeats.deadlines_late()
