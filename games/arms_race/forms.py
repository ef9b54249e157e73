"""Forms of the decisions that need more than a button: an attack, a redirect, a wild card named when bought.

Each is built from the viewer's own decision in the observation, so it offers only what they may choose.
"""

from __future__ import annotations

from django import forms

from .rules import WEAPONS, WILD

WEAPON_CHOICES = [(w.value, w.title) for w in WEAPONS]


def choice(label: str, choices, missing: str, wrong: str, **extra) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=label,
        choices=choices,
        error_messages={"required": missing, "invalid_choice": wrong},
        **extra,
    )


def target_choices(decision: dict, players: list[dict]) -> list[tuple[str, str]]:
    names = {p["seat"]: p["name"] for p in players}
    return [(str(seat), names[seat]) for seat in decision["options"]["targets"]]


class DecisionForm(forms.Form):
    """A decision's form; `payload()` is the action the rules take."""

    kind = ""

    def payload(self) -> dict:
        data = {k: v for k, v in self.cleaned_data.items() if v not in (None, "")}
        if "target" in data:
            data["target"] = int(data["target"])
        return {"type": self.kind, **data}


class AttackForm(DecisionForm):
    kind = "attack"

    def __init__(self, decision: dict, players: list[dict], hand: list[str], *args, **kwargs):
        super().__init__(*args, **kwargs)
        cards = []
        for weapon in decision["options"]["cards"]:
            if weapon == WILD:
                cards.append((WILD, "Wild card (everyone will be told)"))
            else:
                title = dict(WEAPON_CHOICES)[weapon]
                cards.append((weapon, f"{title} ({hand.count(weapon)} in your hand)"))
        self.fields["card"] = choice(
            "Your weapon", cards, "Pick the card you attack with.", "You do not hold that card."
        )
        self.fields["target"] = choice(
            "Aim at",
            target_choices(decision, players),
            "Pick the player you aim at.",
            "Aim at another player at the table.",
        )
        self.fields["claim"] = choice(
            "Claim it is",
            WEAPON_CHOICES,
            "Say which weapon you claim it is.",
            "Claim one of the eight weapons.",
            help_text="It need not be the truth.",
        )
        if "wild_as" in decision["options"]:
            self.fields["wild_as"] = choice(
                "A wild card is played as",
                [("", "(not playing a wild card)")]
                + [(w, dict(WEAPON_CHOICES)[w]) for w in decision["options"]["wild_as"]],
                "Name the weapon your wild card is.",
                "Name one of the eight weapons.",
                required=False,
                help_text="Named in secret before it is played; it gives that weapon's wound.",
            )

    def clean(self):
        data = super().clean()
        if data.get("card") == WILD and not data.get("wild_as"):
            self.add_error("wild_as", "Name the weapon your wild card is before you play it.")
        if data.get("card") not in (None, WILD):
            data["wild_as"] = ""
        return data


class RedirectForm(DecisionForm):
    kind = "redirect"

    def __init__(self, decision: dict, players: list[dict], *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["target"] = choice(
            "Aim it at",
            target_choices(decision, players),
            "Pick who you aim the weapon at.",
            "Aim it at someone who has not seen the weapon.",
            help_text="Only players who have not seen the weapon.",
        )
        self.fields["claim"] = choice(
            "Claim it is",
            WEAPON_CHOICES,
            "Say which weapon you claim it is.",
            "Claim one of the eight weapons.",
            help_text="You know what it is; your claim need not be the truth.",
        )


class NamedWildForm(DecisionForm):
    """Buying a wild card when the settings have it named at purchase."""

    kind = "buy_wild"

    def __init__(self, decision: dict, players: list[dict], *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["weapon"] = choice(
            "Name your wild card", WEAPON_CHOICES, "Name the weapon first.", "Name one of the eight weapons."
        )


def decision_form(view: dict, data=None) -> DecisionForm | None:
    """The form for the viewer's decision now, if it needs one (bound to `data` when given)."""
    decision = view.get("my_decision")
    if not decision:
        return None
    players = view["players"]
    if decision["kind"] == "attack":
        return AttackForm(decision, players, view["hand"], data=data)
    if decision["kind"] == "redirect":
        return RedirectForm(decision, players, data=data)
    if decision["kind"] == "wild_card" and decision["options"]["name_weapon"]:
        return NamedWildForm(decision, players, data=data)
    return None
