"""What one viewer may see of a Horse Race: the rules' views, plus the viewer's trades and decisions."""

from __future__ import annotations

from games.platform.models import Game
from games.platform.observation import current_round
from games.platform.people import shown_name
from games.platform.registry import Viewer

from . import decisions
from .models import MovementTable, TradeOffer
from .names import seat_names
from .rules import HORSES, ROUNDS, full_view, public_view, seat_view, state_from_json
from .store import load


def observe(game: Game, viewer: Viewer) -> dict:
    names = seat_names(game)
    everything = viewer.role == "host" or game.status == Game.Status.FINISHED
    if not game.state:
        return _before_start(game, names, everything)
    state = load(game)
    seat = viewer.seat_number if viewer.role == "player" else None
    if everything:
        view = full_view(state)
    elif seat is not None:
        view = seat_view(state, seat)
    else:
        view = public_view(state)
    view["names"] = [names[s] for s in range(len(names))]
    view["spectating_rows"] = _spectating_rows(view, names)
    view["scoreboard"] = _scoreboard(view, names)
    view["trades"] = _trades(game, seat, everything)
    if seat is not None and not state.over:
        view["trade_partners"] = [{"seat": s, "name": n} for s, n in names.items() if s != seat]
        view["horse_letters"] = list(HORSES)
    current = current_round(game)
    if state.over and current is not None and current.number > ROUNDS and current.status == "open":
        view["decision"] = decisions.describe(game, state, current.number, seat)
    if everything:
        view["movement_rows"] = [{"horse": h, "values": view["movement"][h]} for h in HORSES]
        view["player_rows"] = [{**p, "name": names[p["seat"]]} for p in view["players"]]
    return view


def _before_start(game: Game, names: dict[int, str], everything: bool) -> dict:
    view = {"started": False, "names": [names[s] for s in range(len(names))]}
    if everything:
        table = MovementTable.objects.filter(game=game).first()
        view["movement_problems"] = table.problems() if table else ["No movement table yet."]
    return view


def _spectating_rows(view: dict, names: dict[int, str]) -> list[dict]:
    return [
        {"round": int(r), "spaces": [{"name": names[s], "space": space} for s, space in enumerate(spaces)]}
        for r, spaces in sorted(view["spectating"].items(), key=lambda item: int(item[0]))
    ]


def _scoreboard(view: dict, names: dict[int, str]) -> list[dict]:
    if "scores" not in view:
        return []
    rows = [
        {
            "name": names[s],
            "seat": s,
            "points": points,
            "bet_points": view["bet_points"][s],
            "garnets": view["garnets"][s],
            "tokens_of_life": view["tokens_of_life_won"][s] + view["tokens_of_life_given"][s],
            "elimination_candidate": view["elimination_candidate"] == s,
        }
        for s, points in enumerate(view["scores"])
    ]
    return sorted(rows, key=lambda row: (-row["points"], row["seat"]))


def _trades(game: Game, seat: int | None, everything: bool) -> list[dict]:
    """Offers are private: a player sees their own (made or received); hosts, and everyone at the end, all."""
    if not everything and seat is None:
        return []
    offers = TradeOffer.objects.filter(game=game).select_related(
        "offered_by__user__profile", "offered_to__user__profile"
    )
    if not everything:
        offers = offers.filter(offered_by__number=seat) | offers.filter(offered_to__number=seat)
    rows = []
    for offer in offers.order_by("-id"):
        is_open = offer.status == TradeOffer.Status.OPEN and game.status == Game.Status.RUNNING
        rows.append(
            {
                "id": offer.ref,
                "by": shown_name(offer.offered_by.user),
                "to": shown_name(offer.offered_to.user),
                "by_seat": offer.offered_by.number,
                "to_seat": offer.offered_to.number,
                "give": offer.give,
                "want": offer.want,
                "status": offer.status,
                "round": offer.round_number,
                "can_answer": is_open and offer.offered_to.number == seat,
                "can_withdraw": is_open and offer.offered_by.number == seat,
            }
        )
    return rows


def public_state(state: dict) -> dict:
    """What spectators see of the rules state as stored: the rules' public view. A trade, a purchase or a
    look that leaves it as it was moves no version spectators poll (GameType.public_state, issue 17.7)."""
    return public_view(state_from_json(state)) if state else {}
