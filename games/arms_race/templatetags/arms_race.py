"""The viewer's decision controls: buttons for the one-click choices, a form for an attack or a redirect."""

from __future__ import annotations

import json

from django import template

from ..forms import decision_form

register = template.Library()


def button(label: str, action: dict, style: str = "") -> dict:
    return {"label": label, "value": json.dumps(action), "style": style}


@register.inclusion_tag("arms_race/decision.html", takes_context=True)
def decision_controls(context, state: dict, game_id: int) -> dict:
    decision = state.get("my_decision")
    bound = context.get("arms_race_form")
    form = bound if bound is not None else decision_form(state)
    buttons = []
    if decision and decision["kind"] == "respond":
        buttons.append(button('Challenge: "truth"', {"type": "challenge", "call": "truth"}))
        buttons.append(button('Challenge: "lie"', {"type": "challenge", "call": "lie"}))
        if decision["options"]["pass"]:
            buttons.append(button("Pass and look at the weapon", {"type": "pass"}, "secondary"))
    if decision and decision["kind"] == "wild_card":
        if not decision["options"]["name_weapon"]:
            price = decision["options"]["price"]
            buttons.append(button(f"Buy a wild card ({price} garnets)", {"type": "buy_wild"}))
        buttons.append(button("Decline", {"type": "decline_wild"}, "secondary"))
    return {
        "decision": decision,
        "form": form,
        "buttons": buttons,
        "game_id": game_id,
        "csrf_token": context.get("csrf_token"),
    }
