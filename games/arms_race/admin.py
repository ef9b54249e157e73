"""The hosts' admin for a deal by hand: a line per seat, checked by the rules, locked at the start."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages

from games.platform.admin.scoping import HostScoped
from games.platform.kit import RulesError
from games.platform.models import Game

from .hidden import deal_summary, parse_hand
from .models import Deal
from .observation import card_counts
from .settings import rules_settings

SEATS = 7
OPEN = (Game.Status.DRAFT, Game.Status.SEEDING)


def hand_text(hand: list[str]) -> str:
    return ", ".join(f"{c['count']} {c['weapon']}" for c in card_counts(hand))


def hand_field(seat: int) -> forms.CharField:
    return forms.CharField(
        label=f"Seat {seat}",
        required=False,
        help_text="e.g. 3 dagger, 2 bat, 4 whip" if seat == 1 else "",
        widget=forms.TextInput(attrs={"size": 60}),
    )


def deal_draft(deal: Deal) -> str:
    """What keeps a deal a draft: hands for every seated player (3-7 before seating), each the rules' size."""
    seated = deal.game.seats.count()
    players = seated if seated >= 3 else max(len(deal.hands), 3)
    settings = rules_settings(deal.game.settings, players)
    return deal_summary(deal.hands, players, settings.hand_size)


class DealForm(forms.ModelForm):
    """One line per seat, in seat order; the host writes weapons with counts."""

    hand_1, hand_2, hand_3, hand_4 = hand_field(1), hand_field(2), hand_field(3), hand_field(4)
    hand_5, hand_6, hand_7 = hand_field(5), hand_field(6), hand_field(7)

    class Meta:
        model = Deal
        fields = ("game",)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        games = Game.objects.filter(game_type="arms_race", status__in=OPEN)
        if user is not None and not user.is_superuser:
            games = games.filter(hosts=user)
        if "game" in self.fields:  # not there when the deal is locked and shown read-only
            self.fields["game"].queryset = games.distinct()
        hands = self.instance.hands if self.instance.pk else []
        for seat, hand in enumerate(hands[:SEATS]):
            self.fields[f"hand_{seat + 1}"].initial = hand_text(hand)

    def clean(self):
        """A line that does not read as weapons is an error next to it; a blank line is a hand still to
        deal, and a deal that breaks the rules is kept too: both as a draft the game cannot start with."""
        data = super().clean()
        game = data.get("game")
        if game is not None and game.status not in OPEN:
            raise forms.ValidationError("This game has started: its deal is in play and cannot change.")
        hands = []
        for seat in range(SEATS):
            text = data.get(f"hand_{seat + 1}", "")
            if not text.strip():
                hands.append([])
                continue
            try:
                hands.append(parse_hand(text))
            except RulesError as exc:
                self.add_error(f"hand_{seat + 1}", exc.message)
        if self.errors:
            return data
        # Seated players fix the number of hands; before seating, as many as the last line filled.
        filled = max((seat + 1 for seat, hand in enumerate(hands) if hand), default=0)
        seated = game.seats.count() if game is not None else 0
        self.instance.hands = hands[: max(filled, seated if seated >= 3 else 0)]
        return data


@admin.register(Deal)
class DealAdmin(HostScoped, admin.ModelAdmin):
    game_type = "arms_race"  # the console links a game's page to its deal
    form = DealForm
    list_display = ("game", "seats_dealt", "draft", "updated_at")

    @admin.display(description="Hands")
    def seats_dealt(self, obj):
        return sum(1 for hand in obj.hands if hand)

    @admin.display(description="Ready to start?")
    def draft(self, obj):
        summary = deal_draft(obj)
        return f"Draft: {summary}" if summary else "Complete"

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        summary = deal_draft(obj)
        if summary:
            messages.warning(
                request, f"Saved as a draft: {summary}. The game cannot start until the deal is whole."
            )

    def get_form(self, request, obj=None, change=False, **kwargs):
        base = super().get_form(request, obj, change=change, **kwargs)
        user = request.user

        class HostDealForm(base):
            def __init__(self, *args, **kw):
                super().__init__(*args, user=user, **kw)

        return HostDealForm

    @admin.display(description="The deal (locked: the game has started)")
    def dealt_hands(self, obj):
        return "; ".join(f"Seat {seat + 1}: {hand_text(hand)}" for seat, hand in enumerate(obj.hands))

    def get_fields(self, request, obj=None):
        if obj is not None and obj.locked:
            return ["game", "dealt_hands"]
        return ["game", *[f"hand_{seat + 1}" for seat in range(SEATS)]]

    def get_readonly_fields(self, request, obj=None):
        return ["game", "dealt_hands"] if obj is not None and obj.locked else []

    def has_add_permission(self, request, obj=None):
        # Any host may deal by hand for the games they host (the form offers only those).
        return request.user.is_active and request.user.is_staff

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.locked:
            return False
        return super().has_change_permission(request, obj)
