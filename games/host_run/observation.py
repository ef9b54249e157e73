"""The one door: what each viewer may see of a host-run game, shaped for its page.

Players and spectators see the hosts' rules, the public board, the public results of each resolved round,
the scoreboard when it is public (or at the end), and the round now open; a player sees its own private
values too; the hosts see everything. The end reveals all."""

from __future__ import annotations

from games.platform.guides import to_html
from games.platform.models import Game, Round
from games.platform.observation import current_round

from .names import seat_names
from .rules import full_view, public_view, round_fields, round_title, seat_view
from .store import load


def markdown(text: str) -> str:
    """The hosts' Markdown as HTML: raw HTML is shown as text, never run (guides' renderer)."""
    return to_html(text or "", prefix="hr", shift=2) if (text or "").strip() else ""


def _scoreboard(scores: dict, names: dict[int, str], final: dict | None) -> list[dict]:
    final = final or {}
    ranking = final.get("ranking") or {}
    rows = [
        {
            "seat": int(seat),
            "name": names.get(int(seat), f"seat {int(seat) + 1}"),
            "points": points,
            "rank": ranking.get(seat),
            "winner": int(seat) in (final.get("winners") or []),
            "candidate": final.get("candidate") == int(seat),
        }
        for seat, points in scores.items()
    ]
    return sorted(rows, key=lambda r: (r["rank"] or 999, -r["points"], r["seat"]))


def _private_table(view: dict, names: dict[int, str]) -> list[dict]:
    columns = view.get("columns") or []
    return [
        {
            "name": names.get(int(seat), f"seat {int(seat) + 1}"),
            "values": [values.get(c, "") for c in columns],
        }
        for seat, values in sorted((view.get("private") or {}).items(), key=lambda kv: int(kv[0]))
    ]


def observe(game: Game, viewer) -> dict:
    if not game.state:
        return {"started": False, "names": list(seat_names(game).values())}
    state = load(game)
    names = seat_names(game)
    finished = state.get("final") is not None or game.status == Game.Status.FINISHED
    if viewer.role == "host" or finished:
        view = full_view(state)
    elif viewer.role == "player" and viewer.seat is not None:
        view = seat_view(state, viewer.seat.number)
    else:
        view = public_view(state)
    rnd = current_round(game)
    # A resolved latest round asks nothing: the next one waits for a host's "Open Round N" (or the end).
    number = rnd.number if rnd is not None and rnd.status == Round.Status.OPEN else None
    out = {
        "started": True,
        "viewer_role": viewer.role,
        "finished": finished,
        "rounds": view.get("rounds"),
        "resolved": view.get("resolved", 0),
        "round": number,
        "round_title": round_title(state, number) if number else "",
        "round_questions": [f["label"] for f in round_fields(state, number)] if number else [],
        "rules_html": markdown(view.get("rules", "")),
        "board_html": markdown(view.get("board", "")),
        "results": [dict(r, html=markdown(r.get("public", ""))) for r in reversed(view.get("results") or [])],
        "columns": view.get("columns") or [],
        "scoreboard": _scoreboard(view["scores"], names, view.get("final")) if "scores" in view else [],
        "scoreboard_public": view.get("scoreboard_public", True),
        "final": view.get("final"),
    }
    if out["final"]:
        candidate = out["final"].get("candidate")
        out["candidate_name"] = names.get(candidate, "") if candidate is not None else ""
        out["winner_names"] = [names.get(s, f"seat {s + 1}") for s in out["final"].get("winners") or []]
    if "mine" in view:
        out["mine"] = [{"column": c, "value": view["mine"].get(c, "")} for c in out["columns"]]
        out["my_score"] = view["my_score"]
    if "private" in view:
        out["private_table"] = _private_table(view, names)
    if "notes" in view:
        out["notes_html"] = markdown(view["notes"])
    return out


def public_state(state: dict) -> dict:
    """What spectators see of the rules state as stored (GameType.public_state)."""
    return public_view(state) if state else {}
