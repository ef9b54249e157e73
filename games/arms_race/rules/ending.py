"""The two ends of the game: three wounds of one type (with its winners and awards), or nine rounds played."""

from __future__ import annotations

from dataclasses import replace

from games.platform.kit import Announce, Ledger

from . import chance
from .state import SHARED_WINNER_AWARD, SOLE_WINNER_AWARD, AttackRecord, Outcome, Phase, State
from .weapons import counted


def who(state: State, seat: int | None) -> str:
    return "nobody" if seat is None else state.names[seat]


def killing_roles(state: State, record: AttackRecord) -> tuple[int | None, int | None]:
    """The player who first played the killing weapon and the one who pointed it towards the loser.

    A role that falls on the loser is empty: the loser wins nothing.
    """
    loser = record.wounded
    original = record.owner
    if not record.correct:
        # The challenger called wrong: the wound came from the claim the last pointer made at them.
        pointer = record.claims[-1].pointer
    elif state.settings.caught_pointer_winner == "challenger":
        # The last pointer was caught: the challenger's right call turned the weapon onto them.
        pointer = record.challenger
    else:
        # Read literally: whoever had pointed the weapon at the loser before they pointed it on.
        pointer = record.claims[-2].pointer if len(record.claims) > 1 else None
    return (None if original == loser else original), (None if pointer == loser else pointer)


def end_by_wounds(state: State, record: AttackRecord) -> tuple[State, list]:
    """The game ends the moment a player holds three wounds of one type; that player is the sole loser."""
    loser = record.wounded
    original, pointer = killing_roles(state, record)
    events: list = []
    if original is not None and original == pointer:
        winners = (original,)
        tokens, garnets = SOLE_WINNER_AWARD
        awards = [(original, tokens, garnets, "played the killing weapon and pointed it at the loser")]
    else:
        winners = tuple(seat for seat in (original, pointer) if seat is not None)
        tokens, garnets = SHARED_WINNER_AWARD
        reasons = {
            original: "played the killing weapon first",
            pointer: "pointed the killing weapon at the loser",
        }
        awards = [(seat, tokens, garnets, reasons[seat]) for seat in winners]
    outcome = Outcome("three_wounds", loser, winners, original, pointer)
    count = state.wounds_of(loser, record.weapon)
    events.append(
        Announce(
            f"{who(state, loser)} has {counted(count, record.wound)} and is the sole loser of Arms Race. "
            f"Winners: {', '.join(who(state, s) for s in winners) or 'none'}.",
            {
                "event": "game_over",
                "reason": "three_wounds",
                "loser": loser,
                "winners": list(winners),
                "original": original,
                "pointer": pointer,
                "wound": record.wound,
            },
        )
    )
    for seat, tokens, garnets, reason in awards:
        events.append(Ledger(seat, "tokens_of_life", tokens, f"Arms Race winner: {reason}"))
        events.append(Ledger(seat, "garnets", garnets, f"Arms Race winner: {reason}"))
    return replace(state, phase=Phase.OVER, flight=None, outcome=outcome), events


def end_after_nine_rounds(state: State) -> tuple[State, list]:
    """All rounds played: the sole loser has the most wounds in total; nobody wins, nothing is awarded."""
    seats = range(state.players)
    most = max(state.total_wounds(s) for s in seats)
    tied = [s for s in seats if state.total_wounds(s) == most]
    how = ""
    if len(tied) > 1 and state.settings.final_tiebreak == "by_type_then_random":
        # Closest to three of a kind: the most wounds of one type, then of a second type, and so on.
        def spread(seat: int) -> tuple[int, ...]:
            return tuple(sorted(state.wounds[seat], reverse=True))

        deepest = max(spread(s) for s in tied)
        narrowed = [s for s in tied if spread(s) == deepest]
        if len(narrowed) < len(tied):
            how = "the most wounds of one type, then of the next type"
        tied = narrowed
    if len(tied) > 1:
        loser = chance.for_tiebreak(state.seed).choice(tied)
        how = f"{how}, then " if how else ""
        how += f"a random draw among {', '.join(who(state, s) for s in tied)}"
    else:
        loser = tied[0]
    outcome = Outcome("nine_rounds", loser, (), None, None, how)
    text = (
        f"All {state.settings.rounds} rounds are over. {who(state, loser)} has the most wounds ({most}) "
        f"and is the sole loser" + (f", settled by {how}" if how else "") + ". No winners, no awards."
    )
    data = {"event": "game_over", "reason": "nine_rounds", "loser": loser, "winners": [], "tiebreak": how}
    return replace(state, phase=Phase.OVER, flight=None, outcome=outcome), [Announce(text, data)]


def end_absent(state: State, seats: list[int]) -> tuple[State, list]:
    """Players not at the table at the start time, when the hosts chose that an absent player loses: the
    game ends before its first attack and an absent player is the sole loser (several absent: one drawn from
    the seed among them). Nobody wins and nothing is awarded, as after nine rounds: nobody played a weapon.
    docs/rulings/arms_race.md, "An absent player"."""
    absent = sorted(set(seats))
    how = ""
    loser = absent[0]
    if len(absent) > 1:
        loser = chance.for_tiebreak(state.seed).choice(absent)
        how = f"a random draw among {', '.join(who(state, s) for s in absent)}"
    outcome = Outcome("absent", loser, (), None, None, how)
    text = (
        f"{', '.join(who(state, s) for s in absent)} {'was' if len(absent) == 1 else 'were'} not there "
        f"at the start time. {who(state, loser)} is the sole loser"
        + (f", settled by {how}" if how else "")
        + ". No winners, no awards."
    )
    data = {"event": "game_over", "reason": "absent", "loser": loser, "winners": [], "tiebreak": how}
    return replace(state, phase=Phase.OVER, flight=None, outcome=outcome), [Announce(text, data)]
