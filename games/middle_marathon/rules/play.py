"""Turns and decisions: whose move it is, what is legal, and applying an action until the game waits."""

from __future__ import annotations

import copy
from typing import Any

from games.platform.kit import RulesError

from .abilities import options, prompt, replenish, resolve, trigger
from .narrate import say
from .pieces import NEUTRAL, PIECES, kind, name, owner, parse_piece, seat_name
from .scoring import end_race, race_is_over
from .state import State, Task
from .track import destination, place_pieces


def pending(state: State) -> dict[str, Any]:
    """What the game waits on: {"kind": "over"}, a turn, or the decision on top of the stack."""
    if state.result is not None:
        return {"kind": "over", "seat": None, "result": state.result}
    if state.stack:
        task = state.stack[-1]
        return {
            "kind": "decision",
            "decision": task.kind,
            "seat": task.seat,
            "piece": task.piece,
            "turn_seat": state.to_move,
            "off_turn": task.seat != state.to_move,
            "prompt": prompt(state, task),
            "options": options(state, task),
        }
    return {
        "kind": "turn",
        "seat": state.to_move,
        "turn": state.turn,
        "cards": list(state.hands[state.to_move]),
        "pieces": playable_pieces(state, state.to_move),
    }


def playable_pieces(state: State, seat: int) -> list[str]:
    """A card goes on one of your own pieces or on the neutral piece, and only on the board."""
    return [piece for piece in PIECES if piece in state.positions and owner(piece) in (seat, None)]


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    waiting = pending(state)
    if waiting["seat"] != seat:
        return []
    if waiting["kind"] == "turn":
        return [
            {"type": "play", "card": card, "piece": piece}
            for card in waiting["cards"]
            for piece in waiting["pieces"]
        ]
    return [{"type": "choose", "choice": choice} for choice in waiting["options"]]


def check_action(state: State, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """Validate one player's action; returns it in normal form or raises RulesError naming the field."""
    if state.result is not None:
        raise RulesError("The game is over.")
    if not isinstance(action, dict):
        raise RulesError("An action is a play or a choice.", field="type")
    waiting = pending(state)
    if waiting["seat"] != seat:
        whose = seat_name(waiting["seat"])
        raise RulesError(f"It is not your move: the game waits on {whose}.")
    if waiting["kind"] == "turn":
        if action.get("type") != "play":
            raise RulesError("It is your turn: play a movement card on a piece.", field="type")
        card = action.get("card")
        if isinstance(card, str) and card.strip().isdigit():
            card = int(card)
        if type(card) is not int or card not in waiting["cards"]:
            have = ", ".join(str(c) for c in waiting["cards"])
            raise RulesError(f"You do not hold that movement card; your hand is {have}.", field="card")
        piece = parse_piece(action.get("piece"))
        if piece not in state.positions:
            raise RulesError(
                f"{name(piece)} is off the board: you may only target pieces on the board.", field="piece"
            )
        if owner(piece) not in (seat, None):
            raise RulesError(
                "Play a card on one of your own pieces or on the neutral Movement piece.", field="piece"
            )
        return {"type": "play", "card": card, "piece": piece}
    if action.get("type") != "choose":
        raise RulesError(f"First answer the pending choice: {waiting['prompt']}", field="type")
    choice = action.get("choice")
    if waiting["decision"] == "discard":
        if not isinstance(choice, list | tuple) or not all(type(c) is int for c in choice):
            raise RulesError(
                "Give the cards to discard as a list of numbers (it may be empty).", field="choice"
            )
        choice = sorted(choice)
    else:
        choice = parse_piece(choice, field="choice")
    if choice not in waiting["options"]:
        raise RulesError(f"That choice is not allowed. {waiting['prompt']}", field="choice")
    return {"type": "choose", "choice": choice}


def apply(state: State, seat: int, action: dict[str, Any]) -> tuple[State, list]:
    """Apply a legal action by `seat`; returns the new state (the old one is untouched) and the events."""
    action = check_action(state, seat, action)
    state = copy.deepcopy(state)
    events: list = []
    if action["type"] == "play":
        play_card(state, events, seat, action["card"], action["piece"])
    else:
        resolve(state, events, state.stack[-1], action["choice"], forced=False)
    settle(state, events)
    return state, events


def absent(state: State, seats: list[int]) -> tuple[State, list]:
    """Players not at the table at the start time, when the hosts chose that an absent player loses: read
    as "Running out of reserve time is an instant loss" before the first move (docs/rulings: an absent
    player). One absent: the other wins. Both absent: nobody wins and nobody is named; the DMO decides."""
    if state.result is not None:
        raise RulesError("The game is over.")
    state = copy.deepcopy(state)
    events: list = []
    state.stack.clear()
    winner = 1 - seats[0] if len(set(seats)) == 1 else None
    who = " and ".join(seat_name(seat) for seat in sorted(set(seats)))
    state.result = {
        "winner": winner,
        "draw": False,
        "reason": f"{who} {'was' if winner is not None else 'were'} not there at the start time",
        "ended_because": "absent",
        "scores": None,
        "order": None,
        "placements": None,
    }
    if winner is None:
        text = f"{who} were not there at the start time. Nobody wins: the DMO decides."
    else:
        text = f"{who} was not there at the start time and loses. {seat_name(winner)} wins."
    say(state, events, text, winner=winner, absent=sorted(set(seats)))
    return state, events


def timeout(state: State, seat: int) -> tuple[State, list]:
    """`seat`'s reserve time ran out: "Running out of reserve time is an instant loss"."""
    if state.result is not None:
        raise RulesError("The game is over.")
    state = copy.deepcopy(state)
    events: list = []
    state.stack.clear()
    winner = 1 - seat
    state.result = {
        "winner": winner,
        "draw": False,
        "reason": f"{seat_name(seat)} ran out of reserve time",
        "ended_because": "timeout",
        "scores": None,
        "order": None,
        "placements": None,
    }
    say(
        state,
        events,
        f"{seat_name(seat)} ran out of reserve time and loses. {seat_name(winner)} wins.",
        winner=winner,
        timeout=seat,
    )
    return state, events


def play_card(state: State, events: list, seat: int, card: int, piece: str) -> None:
    state.hands[seat].remove(card)
    state.played.append({"turn": state.turn, "seat": seat, "card": card, "piece": piece})
    if card == 0:
        zero_card(state, seat, piece)
        outcome = f"the 0 ability of {name(piece)} triggers"
    else:
        outcome = move_by_card(state, seat, card, piece)
    say(
        state,
        events,
        f"{seat_name(seat)} plays {card} on {name(piece)}: {outcome}",
        seat=seat,
        card=card,
        piece=piece,
    )
    if not state.hands[seat]:
        # Replenished at once, before any ability is resolved: Movement's 0 played as the last card of the
        # deck discards from a hand of 0, 1, 2, 3, 4 (abilities read the hand only when resolved).
        replenish(state, events, seat)


def move_by_card(state: State, seat: int, card: int, piece: str) -> str:
    # "Whenever an odd movement card is used on this piece, it goes backwards instead of forwards."
    direction = -1 if kind(piece) == "M" and card % 2 else 1
    start = state.positions[piece]
    end = destination(state, piece, direction, card)
    if kind(piece) == "F" and end != start:
        # The Force and the piece its owner picks move together, so the Force waits for that choice.
        way = 1 if end > start else -1
        state.stack.append(
            Task(
                "force_companion", seat, piece, direction=way, distance=abs(end - start), start=start, end=end
            )
        )
        return f"{name(piece)} is to move {start} -> {end} with another piece {seat_name(seat)} chooses"
    words = place_pieces(state, [(piece, start, end)])
    trigger(state, [(piece, start, end)], by_card=piece)
    return words


def zero_card(state: State, seat: int, piece: str) -> None:
    """A 0 moves nothing; it sets off the piece's 0 ability instead."""
    task_kind = {"F": "force_lock", "G": "gravity", "R": "reflect_reverse", "S": "swap", "M": "discard"}
    task = Task(task_kind[kind(piece)], seat, piece)
    if kind(piece) == "G":
        task.away, task.sides = True, ["ahead", "behind"]
    if piece == NEUTRAL:
        task.seat = seat  # the neutral piece has no owner: "you" is the player who used the card
    state.stack.append(task)


def settle(state: State, events: list) -> None:
    """Resolve forced and empty abilities until someone must choose, the turn ends, or the race does."""
    while state.result is None:
        if race_is_over(state):
            state.stack.clear()
            text = end_race(state)
            say(state, events, text, result=state.result)
            return
        if not state.stack:
            end_turn(state, events)
            return
        task = state.stack[-1]
        legal = options(state, task)
        if not legal:
            state.stack.pop()
            say(
                state,
                events,
                f"{name(task.piece)}'s ability has no legal target and does nothing",
                piece=task.piece,
                decision=task.kind,
            )
        elif len(legal) == 1:
            resolve(state, events, task, legal[0], forced=True)
        else:
            return


def end_turn(state: State, events: list) -> None:
    """Statuses lasting "until the end of your next turn" run out, and the other player plays."""
    for statuses, what in (
        (state.locked_until, "can move again"),
        (state.reversed_until, "moves normally again"),
    ):
        for piece in [p for p, until in statuses.items() if until <= state.turn]:
            del statuses[piece]
            say(state, events, f"{name(piece)} {what}", piece=piece)
    state.turn += 1
    state.to_move = 1 - state.to_move
    say(
        state,
        events,
        f"Turn {state.turn}: {seat_name(state.to_move)} to play",
        turn=state.turn,
        seat=state.to_move,
    )
