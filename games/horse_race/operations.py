"""Between the rounds, the operations players run through the site: card trade offers (offer, accept,
decline, withdraw) and garnet purchases.

Each handler runs under the game's row lock (the platform's operation_run), so an accept re-reads both hands
after any other accept has committed: of two accepts needing the same card, the second is told it can't.
"""

from __future__ import annotations

from django.utils import timezone

from games.platform.errors import NotAllowed, StateChanged
from games.platform.kit import Ledger, Reveal, RulesError, seat_ref
from games.platform.models import Game, Seat
from games.platform.people import shown_name
from games.platform.registry import Outcome, Viewer

from .models import TradeOffer
from .names import with_names
from .rules import purchase, purchase_cost, trade
from .rules.state import check_horse
from .rules.words import a_card
from .store import dump, load


def _playing(game: Game, viewer: Viewer, what: str):
    if viewer.role != "player":
        raise NotAllowed(f"Only a player of this game can {what}.")
    if game.paused_at:
        raise StateChanged("The hosts paused the game; trades and purchases wait for the resume.")
    state = load(game)
    if state.over:
        raise RulesError("The race is over; cards can no longer change hands.", field="round")
    return state


def _offer(game: Game, viewer: Viewer, payload: dict, *, mine: str) -> TradeOffer:
    """The open offer the payload names, made by (mine="by") or to (mine="to") the viewer."""
    ref = payload.get("offer")
    if not isinstance(ref, str) or not ref.strip():
        raise RulesError("Say which trade offer.", field="offer")
    offer = TradeOffer.objects.select_related("offered_by__user", "offered_to__user").filter(
        game=game, ref=ref.strip()
    )
    offer = offer.filter(offered_by=viewer.seat) if mine == "by" else offer.filter(offered_to=viewer.seat)
    found = offer.first()
    if found is None:
        raise RulesError("There is no such trade offer for you.", field="offer")
    if found.status != TradeOffer.Status.OPEN:
        raise RulesError(f"That offer is no longer open (it was {found.status}).", field="offer")
    return found


def _close(offer: TradeOffer, status: str) -> None:
    offer.status = status
    offer.closed_at = timezone.now()
    offer.save(update_fields=["status", "closed_at"])


def offer_trade(game: Game, viewer: Viewer, payload: dict) -> Outcome:
    """Offer one of your cards for one of another player's cards."""
    state = _playing(game, viewer, "trade")
    give, want = check_horse(payload.get("give"), "give"), check_horse(payload.get("want"), "want")
    if give == want:
        raise RulesError("Ask for a different card from the one you give.", field="want")
    to = str(payload.get("to", "")).strip()
    seats = Seat.objects.filter(game=game).select_related("user")
    partner = next((s for s in seats if to in (s.user.username, str(s.number))), None)
    if partner is None or partner.pk == viewer.seat.pk:
        raise RulesError("Choose another player of this game to trade with.", field="to")
    if state.players[viewer.seat.number].hand[give] < 1:
        raise RulesError(f"You hold no {give} card to offer.", field="give")
    offer = TradeOffer.objects.create(
        game=game,
        offered_by=viewer.seat,
        offered_to=partner,
        give=give,
        want=want,
        round_number=state.round,
    )
    me, them = seat_ref(viewer.seat.number), seat_ref(partner.number)
    return Outcome(
        state=game.state,
        events=[
            Reveal(viewer.seat.number, f"You offered {them} your {give} card for their {want}."),
            Reveal(
                partner.number,
                f"{me} offers you their {give} card for your {want} card (see Trades on the game page).",
                {"offer": offer.ref},
            ),
        ],
    )


def accept_trade(game: Game, viewer: Viewer, payload: dict) -> Outcome:
    """Accept an offer made to you: both cards change hands at once, if both are still held."""
    state = _playing(game, viewer, "trade")
    offer = _offer(game, viewer, payload, mine="to")
    by, to = offer.offered_by, offer.offered_to
    if state.players[by.number].hand[offer.give] < 1:
        raise RulesError(
            f"{shown_name(by.user)} no longer holds {a_card(offer.give)}, so this trade can no longer be "
            "made.",
            field="offer",
        )
    if state.players[to.number].hand[offer.want] < 1:
        raise RulesError(
            f"You no longer hold {a_card(offer.want)}, so you can no longer accept this trade.", field="offer"
        )
    state, events = trade(state, by.number, offer.give, to.number, offer.want)
    _close(offer, TradeOffer.Status.ACCEPTED)
    return Outcome(state=dump(state), events=with_names(game, events))


def decline_trade(game: Game, viewer: Viewer, payload: dict) -> Outcome:
    _playing(game, viewer, "trade")
    offer = _offer(game, viewer, payload, mine="to")
    _close(offer, TradeOffer.Status.DECLINED)
    by, to = seat_ref(offer.offered_by.number), seat_ref(offer.offered_to.number)
    text = f"{to} declined your {offer.give} card for their {offer.want}."
    mine = f"You declined {by}'s {offer.give} card for your {offer.want}."
    return Outcome(
        state=game.state,
        events=[Reveal(offer.offered_by.number, text), Reveal(offer.offered_to.number, mine)],
    )


def withdraw_trade(game: Game, viewer: Viewer, payload: dict) -> Outcome:
    _playing(game, viewer, "trade")
    offer = _offer(game, viewer, payload, mine="by")
    _close(offer, TradeOffer.Status.WITHDRAWN)
    by, to = seat_ref(offer.offered_by.number), seat_ref(offer.offered_to.number)
    text = f"{by} withdrew their offer of {offer.give} for your {offer.want}."
    mine = f"You withdrew your offer of {offer.give} for {to}'s {offer.want}."
    return Outcome(
        state=game.state,
        events=[Reveal(offer.offered_to.number, text), Reveal(offer.offered_by.number, mine)],
    )


def buy_card(game: Game, viewer: Viewer, payload: dict) -> Outcome:
    """Buy a horse card with garnets: 2, then 4, 8, ...; the season ledger refuses an overdraft."""
    state = _playing(game, viewer, "buy cards")
    seat = viewer.seat.number
    horse = check_horse(payload.get("horse"), "horse")
    cost = purchase_cost(state, seat)
    state, events = purchase(state, seat, horse)
    # The garnets go first: if the season balance is short, NotEnough rolls the whole purchase back.
    return Outcome(
        state=dump(state), events=[Ledger(seat, "garnets", -cost, f"Bought {a_card(horse)}"), *events]
    )


def expire_offers(game: Game) -> None:
    """The race is over: open offers can never be accepted."""
    TradeOffer.objects.filter(game=game, status=TradeOffer.Status.OPEN).update(
        status=TradeOffer.Status.EXPIRED, closed_at=timezone.now()
    )


OPERATIONS = {
    "offer_trade": offer_trade,
    "accept_trade": accept_trade,
    "decline_trade": decline_trade,
    "withdraw_trade": withdraw_trade,
    "purchase": buy_card,
}
