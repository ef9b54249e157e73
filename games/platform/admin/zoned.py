"""Times in the admin's lists as every page of the site writes them: in the viewer's zone, with the zone named
("27 Nov 2026, 14:05 (Europe/Berlin)"). Django's own column writes "Nov. 27, 2026, 2:05 p.m." and names no
zone, so a host in Berlin reading a deadline set by a host in New York cannot tell which 2 p.m. it is.

`ZonedTimes` before admin.ModelAdmin turns each date-and-time column of `list_display` into that text, still
sorted by its field; `zoned(model, name)` is one such column, for a list, or (as a staticmethod of the admin)
an inline's read-only field.
"""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils.text import capfirst

from ..zones import local_text


def zoned(model, name: str, description: str = ""):
    """A column (or read-only field) showing the model's datetime field `name` in the viewer's zone."""
    field = model._meta.get_field(name)

    @admin.display(description=description or capfirst(field.verbose_name), ordering=name)
    def shown(obj):
        return local_text(getattr(obj, name)) or None  # None: the admin's "-"

    shown.__name__ = name  # the column keeps its CSS class (column-<name>)
    return shown


def _is_datetime(model, name) -> bool:
    if not isinstance(name, str):
        return False
    try:
        return isinstance(model._meta.get_field(name), models.DateTimeField)
    except FieldDoesNotExist:
        return False


class ZonedTimes:
    """A model admin whose list writes its times in the viewer's zone, named."""

    def get_list_display(self, request):
        columns = super().get_list_display(request)
        return [zoned(self.model, c) if _is_datetime(self.model, c) else c for c in columns]
