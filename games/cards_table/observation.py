"""The one door: what each viewer may see of a Cards on the Table game, shaped for the board page."""

from __future__ import annotations

from games.platform.models import Game
from games.platform.observation import current_round

from .names import seat_names
from .rules import full_view, public_view, seat_view, state_from_json
from .store import load
from .verdicts import heat_guesses

ROWS = range(1, 6)


def _grid(cards: dict[tuple[int, int], dict], **extra) -> list[list[dict]]:
    """5 rows of 5 cells; a cell carries its card only where the viewer may see it."""
    return [
        [{"row": r, "col": c, "name": f"R{r}C{c}", "card": cards.get((r, c)), **extra} for c in ROWS]
        for r in ROWS
    ]


def _names(game: Game, players: int) -> list[str]:
    names = seat_names(game)
    return [names.get(n, f"seat {n + 1}") for n in range(players)]


def _revealed_boards(view: dict) -> list[dict]:
    return [
        {"round": r, "rows": _grid({(card["row"], card["col"]): card for card in board})}
        for r, board in enumerate(view["boards"], start=1)
    ]


def _scoreboard(view: dict, names: list[str]) -> list[dict]:
    final = view.get("final")
    if not final:
        return []
    rows = [
        {
            "seat": seat,
            "name": names[seat],
            "total": final["totals"][seat],
            "garnets": final["garnets"][seat],
            "token_of_life": seat in final["tokens_of_life"],
            "winner": seat in final["winners"],
            "loser": seat == final["loser"],
            "loser_candidate": final["loser"] is None and seat in final["loser_candidates"],
            "card_sum": final["card_sums"][seat],
        }
        for seat in range(len(names))
    ]
    return sorted(rows, key=lambda row: (-row["total"], row["seat"]))


def _everything(game: Game, state, names: list[str]) -> dict:
    view = full_view(state)
    view["names"] = names
    view["revealed_boards"] = _revealed_boards(view)
    view["scoreboard"] = _scoreboard(view, names)
    current = view["boards"][state.round - 1]
    view["table"] = {
        "round": state.round,
        "rows": _grid({(card["row"], card["col"]): card for card in current}),
    }
    view["points_by_seat"] = [
        {"name": names[s], "points": [p for p in view["points"] if p["seat"] == s]} for s in range(len(names))
    ]
    return view


def _player(game: Game, state, seat: int, names: list[str]) -> dict:
    view = seat_view(state, seat)
    mine = view["my_rounds"][state.round - 1]
    flipped = {(card["row"], card["col"]): card | {"order": i} for i, card in enumerate(mine["flips"], 1)}
    can = view["can"]
    rows = _grid(flipped)
    for row in rows:
        for cell in row:
            cell["can_flip"] = cell["card"] is None and bool(can["flip"])
    view["names"] = names
    view["others"] = [{"seat": n, "name": name} for n, name in enumerate(names) if n != seat]
    view["table"] = {"round": state.round, "rows": rows}
    view["flip_count"] = len(mine["flips"])
    view["next_flip_cost"] = -can["next_flip_penalty"] if can["flip"] else 0
    view["declared"] = mine["declared"]
    view["action"] = mine["action"]
    view["choose_action"] = list(can["declare"]) if len(mine["flips"]) < 2 else []
    view["earlier_rounds"] = [
        {
            "round": r["round"],
            "rows": _grid({(c["row"], c["col"]): c for c in r["flips"]}),
            "action": r["action"],
        }
        for r in view["my_rounds"][: state.round - 1]
    ]
    if can["peek"]:
        # The previous board as this player knows it: the cards they turned over then, and those they bought
        # a look at, face up; a garnet is offered only for the others.
        before = view["my_rounds"][state.round - 2]["flips"]
        known = {(c["row"], c["col"]): c | {"order": i} for i, c in enumerate(before, 1)}
        known |= {(c["row"], c["col"]): c for c in mine["peeks"]}
        rows = _grid(known)
        for row in rows:
            for cell in row:
                cell["can_peek"] = cell["card"] is None
        view["peek_table"] = {"round": state.round - 1, "rows": rows}
    return view


def observe(game: Game, viewer) -> dict:
    if not game.state:
        return {"started": False, "names": list(seat_names(game).values())}
    state = load(game)
    names = _names(game, state.settings.players)
    if viewer.role == "host" or game.status == Game.Status.FINISHED:
        view = _everything(game, state, names)
        if viewer.role == "host" and game.status != Game.Status.FINISHED:
            view["heat_guesses_to_judge"] = heat_guesses(game, current_round(game))
        return view | {"started": True, "viewer_role": viewer.role}
    if viewer.role == "player" and state.phase.value == "playing":
        return _player(game, state, viewer.seat.number, names) | {"started": True, "viewer_role": "player"}
    view = public_view(state)
    if "boards" in view:  # the Main Match is over (the winners may still be choosing): all is revealed
        return _everything(game, state, names) | {"started": True, "viewer_role": viewer.role}
    view["names"] = names
    view["table"] = {"round": state.round, "rows": _grid({})}
    return view | {"started": True, "viewer_role": viewer.role}


def public_state(state: dict) -> dict:
    """What spectators see of the rules state as stored: the rules' public view. A trade, a purchase or a
    look that leaves it as it was moves no version spectators poll (GameType.public_state, issue 17.7)."""
    return public_view(state_from_json(state)) if state else {}
