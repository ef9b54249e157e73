"""The game's admin page as a host's browser would post it back: its fields as they are, plus changes."""

from __future__ import annotations

from django.test import Client


def as_posted(value):
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)  # a list setting is one box, "30, 60, 90"
    return value


def game_form(client: Client, game, **changes) -> dict:
    """The change form's current values (inline formsets included), with `changes` over them."""
    page = client.get(f"/admin/platform/game/{game.id}/change/")
    form = page.context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if name == "hosts":
            value = [u.pk for u in game.hosts.all()]
        if name == "settings" or value is None or value is False:
            continue
        data[name] = value if name == "hosts" else as_posted(value)
    for formset in page.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        for name in ("TOTAL_FORMS", "INITIAL_FORMS"):
            data[f"{management.prefix}-{name}"] = management.initial[name]
        for inline in formset.formset.forms:
            for name in inline.fields:
                value = {"id": inline.instance.pk, "game": game.pk}.get(name, inline.initial.get(name))
                if value is not None:
                    data[f"{inline.prefix}-{name}"] = getattr(value, "pk", value)
    data.update(changes)
    return data
