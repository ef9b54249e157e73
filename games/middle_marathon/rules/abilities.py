"""The pieces' abilities: what each may target right now, and carrying out the chosen target."""

from __future__ import annotations

from itertools import combinations

from .narrate import say, tell
from .pieces import PIECES, kind, name, owner, seat_name
from .state import FULL_DECK, State, Task
from .track import destination, pieces_ahead, pieces_behind, place_pieces

# What the player is asked, by task kind.
PROMPTS = {
    "force_companion": "Choose another piece to move {distance} space(s) {way} with {piece}.",
    "force_lock": "Choose a piece that cannot move until the end of your next turn ({piece}).",
    "gravity": "Choose a piece {sides} {piece} to move 1 space {toward} it.",
    "reflect": "Choose a piece {side} {piece} to move {distance} space(s) {way}.",
    "reflect_reverse": "Choose a piece whose movement is reversed until the end of your next turn ({piece}).",
    "swap": "Choose another piece of your colour to swap places with {piece}.",
    "discard": "Discard up to 2 movement cards from your hand (Movement's 0), or none.",
}


def prompt(state: State, task: Task) -> str:
    way = "forwards" if task.direction > 0 else "backwards"
    reflected = "backwards" if task.direction > 0 else "forwards"
    return PROMPTS[task.kind].format(
        piece=name(task.piece),
        distance=task.distance,
        way=reflected if task.kind == "reflect" else way,
        sides={("ahead",): "ahead of", ("behind",): "behind"}.get(tuple(task.sides), "ahead of or behind"),
        side="ahead of" if task.direction > 0 else "behind",
        toward="away from" if task.away else "towards",
    )


def options(state: State, task: Task) -> list:
    """The legal answers to `task` at this moment, in PIECES order (or hand subsets for a discard)."""
    if task.kind == "discard":
        hand = state.hands[task.seat]
        return [list(cards) for size in range(3) for cards in combinations(hand, size)]
    if task.piece not in state.positions:
        return []  # "You may not use a piece's ability if it is off the board."
    here = state.positions[task.piece]
    on_board = [piece for piece in PIECES if piece in state.positions]
    if task.kind == "force_companion":
        return [piece for piece in on_board if piece != task.piece]
    if task.kind in ("force_lock", "reflect_reverse"):
        return [p for p in on_board if p != task.piece or state.settings.zero_may_target_itself]
    if task.kind == "swap":
        return [p for p in on_board if p != task.piece and owner(p) == owner(task.piece)]
    if task.kind == "gravity":
        # Ahead/behind is judged now, at the Gravity piece's present space (clarification). A Gravity moves
        # "two different pieces": a chain may have carried the first one to the other side, yet it is not
        # taken twice.
        ahead = pieces_ahead(state, here) if "ahead" in task.sides else []
        behind = pieces_behind(state, here) if "behind" in task.sides else []
        return [p for p in PIECES if (p in ahead or p in behind) and p != task.first]
    if task.kind == "reflect":
        return pieces_ahead(state, here) if task.direction > 0 else pieces_behind(state, here)
    raise ValueError(f"unknown task {task.kind}")


def until_owners_next_turn(state: State, seat: int) -> int:
    """The last turn number of "until the end of your next turn", said during turn state.turn."""
    return state.turn + 2 if seat == state.to_move else state.turn + 1


def trigger(state: State, moves: list[tuple[str, int, int]], by_card: str | None) -> None:
    """Push the abilities that the moves just made set off (moving 0 spaces is not moving)."""
    for piece, start, end in moves:
        if start == end or piece not in state.positions:
            continue
        if kind(piece) == "G":
            state.stack.append(Task("gravity", owner(piece), piece, sides=["ahead", "behind"]))
        elif kind(piece) == "R" and piece != by_card:
            direction = 1 if end > start else -1
            state.stack.append(
                Task("reflect", owner(piece), piece, direction=direction, distance=abs(end - start))
            )


def move_one(state: State, piece: str, direction: int, distance: int) -> tuple[str, str]:
    """Move a piece by an ability (not by a card), set off what it sets off; returns the words."""
    start = state.positions[piece]
    end = destination(state, piece, direction, distance)
    words = place_pieces(state, [(piece, start, end)])
    trigger(state, [(piece, start, end)], by_card=None)
    return words


def describe_choice(task: Task, choice) -> str:
    if task.kind == "discard":
        return "no cards" if not choice else "the " + " and ".join(str(card) for card in choice)
    return name(choice)


def resolve(state: State, events: list, task: Task, choice, forced: bool) -> None:
    """Carry out `choice` for the task on top of the stack; chained abilities go on top of the stack."""
    state.stack.pop()
    state.decisions.append(
        {
            "turn": state.turn,
            "seat": task.seat,
            "kind": task.kind,
            "piece": task.piece,
            "choice": choice,
            "forced": forced,
        }
    )
    who = seat_name(task.seat)
    how = " (forced)" if forced else ""
    data = {"decision": task.kind, "seat": task.seat, "piece": task.piece, "choice": choice, "forced": forced}
    if task.kind == "discard":
        _discard(state, events, task.seat, choice, how, data)
        return
    head = f"{who} chooses {describe_choice(task, choice)} for {name(task.piece)}{how}"
    if task.kind == "force_companion":
        # The companion moves at the same time as the Force: both land (or finish) together.
        start = state.positions[choice]
        end = destination(state, choice, task.direction, task.distance)
        moves = [(task.piece, task.start, task.end), (choice, start, end)]
        say(state, events, f"{head}: {place_pieces(state, moves)}", **data)
        trigger(state, moves, by_card=task.piece)
    elif task.kind in ("force_lock", "reflect_reverse"):
        until = until_owners_next_turn(state, task.seat)
        statuses = state.locked_until if task.kind == "force_lock" else state.reversed_until
        until = statuses[choice] = max(statuses.get(choice, 0), until)
        effect = "cannot move" if task.kind == "force_lock" else "has its movement reversed"
        say(state, events, f"{head}: {name(choice)} {effect} until the end of turn {until}", **data)
    elif task.kind == "swap":
        mine, theirs = state.positions[task.piece], state.positions[choice]
        state.positions[task.piece], state.positions[choice] = theirs, mine
        say(
            state,
            events,
            f"{head}: {name(task.piece)} {mine} <-> {name(choice)} {theirs} (swapped, not moved)",
            **data,
        )
    elif task.kind == "gravity":
        here = state.positions[task.piece]
        side = "ahead" if state.positions[choice] > here else "behind"
        rest = [s for s in task.sides if s != side]
        if rest:
            # The other part waits underneath whatever this part sets off.
            state.stack.append(
                Task("gravity", task.seat, task.piece, away=task.away, sides=rest, first=choice)
            )
        toward = -1 if side == "ahead" else 1
        say(state, events, f"{head}: {move_one(state, choice, -toward if task.away else toward, 1)}", **data)
    elif task.kind == "reflect":
        say(state, events, f"{head}: {move_one(state, choice, -task.direction, task.distance)}", **data)
    else:
        raise ValueError(f"unknown task {task.kind}")


def told_discard(cards: list[int]) -> str:
    """The discarder's own line when only the number of cards discarded is announced."""
    return f"You discard {describe_choice(Task('discard', 0, ''), cards)}"


def _discard(state: State, events: list, seat: int, cards: list[int], how: str, data: dict) -> None:
    hand = state.hands[seat]
    for card in cards:
        hand.remove(card)
    state.discards.append({"turn": state.turn, "seat": seat, "cards": list(cards)})
    who = seat_name(seat)
    if state.settings.discards_public:
        say(state, events, f"{who} discards {describe_choice(Task('discard', seat, ''), cards)}{how}", **data)
    else:
        public = {key: value for key, value in data.items() if key != "choice"} | {"count": len(cards)}
        say(state, events, f"{who} discards {len(cards)} card(s){how}", **public)
        tell(events, seat, told_discard(cards), **data)
    if not hand:
        replenish(state, events, seat)


def replenish(state: State, events: list, seat: int) -> None:
    """The deck refills the moment its last card is used."""
    state.hands[seat] = list(FULL_DECK)
    say(state, events, f"{seat_name(seat)}'s deck is used up and replenished: 0, 1, 2, 3, 4", seat=seat)
