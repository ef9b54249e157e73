"""The ledger's balances and entries, as this host may know them (issue 17.4)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import F, OuterRef, Q

from ..models import Game, LedgerAccount, LedgerEntry, Season
from ..services.ledger import hidden_moves, secret_from
from .scoping import ReadOnlyHostScoped
from .told import ToldTexts
from .zoned import ZonedTimes


class LedgerScoped(ReadOnlyHostScoped):
    """Season balances to the season's hosts; a game's chips, cards and points to that game's hosts only."""

    account_path = ""

    def get_queryset(self, request):
        qs = admin.ModelAdmin.get_queryset(self, request)
        if request.user.is_superuser:
            return qs
        p = self.account_path
        return qs.filter(
            Q(**{f"{p}game__isnull": True, f"{p}season__hosts": request.user})
            | Q(**{f"{p}game__hosts": request.user})
        ).distinct()


@admin.register(LedgerAccount)
class LedgerAccountAdmin(LedgerScoped, admin.ModelAdmin):
    """Balances as this host may know them: without what a game they do not host moved while it runs."""

    list_display = ("user", "season", "game", "what", "item", "known_balance")
    list_filter = ("what",)
    search_fields = ("user__username",)
    fields = readonly_fields = ("user", "season", "game", "what", "item", "known_balance")

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs.annotate(known=F("balance") - hidden_moves(request.user))

    @admin.display(description="balance", ordering="known")
    def known_balance(self, obj):
        return obj.known


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ZonedTimes, ToldTexts, LedgerScoped, admin.ModelAdmin):
    """Each change, except a running game's own moves to a host who does not host that game (issue 17.4)."""

    account_path = "account__"
    told_field = "reason"
    list_display = ("created_at", "account_name", "delta", "known_balance_after", "why", "actor")
    search_fields = ("account__user__username", "reason")
    fields = readonly_fields = (
        "account_name",
        "delta",
        "known_balance_after",
        "why",
        "game",
        "round_number",
        "actor",
        "created_at",
    )

    def get_queryset(self, request):
        qs = admin.ModelAdmin.get_queryset(self, request)
        if not request.user.is_superuser:
            seasons = Season.objects.filter(hosts=request.user).values("pk")
            games = Game.objects.filter(hosts=request.user).values("pk")
            # A game's hosts also see what their game moved in the season's ledger, season hosts or not.
            qs = qs.filter(
                Q(account__game__isnull=True, account__season__in=seasons)
                | Q(account__game__in=games)
                | Q(game__in=games)
            )
        qs = qs.exclude(secret_from(request.user))
        return qs.select_related("account__user").annotate(
            known_after=F("balance_after")
            - hidden_moves(request.user, account=OuterRef("account"), up_to=OuterRef("pk"))
        )

    @admin.display(description="account")
    def account_name(self, obj):
        return str(obj.account)

    @admin.display(description="balance after", ordering="known_after")
    def known_balance_after(self, obj):
        return obj.known_after

    @admin.display(description="reason")
    def why(self, obj):
        return self.told(obj)
