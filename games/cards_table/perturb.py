"""The leak test's tool: change everything of a running game that one seat (or the spectators) may not see.

A seat sees the cards it turned over or bought with their heat indicators, its own doings, guesses,
submission and inbox, whether the players it named topped a list, and the anonymous lists; spectators see
the lists. So the boards are redrawn around the cards the seat saw (by the Rules of the Boards), the heat rule
changes while the seen indicators stay as hand-set ones, the other seats' doings, guesses, verdicts,
submissions and inboxes change, and the points change hands (never the seat's own points to be seen either).
Once the Main Match is over all of that is public; the winners' choices and the seed that draws the
elimination candidate when they do not choose stay hidden until the game ends.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from games.platform.models import Game, Round, Submission
from games.platform.perturbation import other_inboxes
from games.platform.services.rounds import latest_submissions

from .decisions import ROUND_OF_LOSER_CHOICE
from .hidden import codes_of
from .models import BoardSet, HeatVerdict
from .rules import (
    ACTION_ORDER,
    HEAT_RULES,
    Colour,
    GuessCell,
    Phase,
    SeatRound,
    State,
    heat_at,
    redraw_boards,
)
from .rules.cards import COLOURS, NUMBERS, SIZE, index
from .rules.state import HeatOverride
from .store import dump, load

CELLS = [(row, col) for row in range(1, SIZE + 1) for col in range(1, SIZE + 1)]


def hidden_perturb(kind, game: Game, seat: int | None, rng) -> list[str]:
    if game.status == Game.Status.FINISHED:
        return []  # the end reveals everything
    state = load(game)
    changed = []
    if state.phase is Phase.PLAYING:
        state, changed = _table(state, seat, rng)
        state, more = _doings(state, seat, rng)
        changed += more + [_verdicts(game, state, seat)]
        # The hosts' set is what the game started with: the admin shows it and hidden_problems checks it.
        BoardSet.objects.filter(game=game).update(
            codes=codes_of(state.boards),
            heat_rule=state.heat_rule,
            heat_overrides=[
                {"round": o.round, "row": o.row, "col": o.col, **o.indicator.to_dict()}
                for o in state.heat_overrides
            ],
        )
    game.state = dump(state)
    game.seed = rng.getrandbits(62)  # it draws the elimination candidate when no winner chooses
    game.save(update_fields=["state", "seed"])
    changed += ["the seed", _submissions(kind, game, state, seat, rng), _inboxes(game, seat, rng)]
    return [c for c in changed if c]


def seen_cards(state: State, seat: int | None) -> set[tuple[int, int, int]]:
    """(round, row, col) of every card the seat turned over, or bought a look at, so far."""
    if seat is None:
        return set()
    seen = set()
    for rnd in range(1, state.round + 1):
        doings = state.seat_round(seat, rnd)
        seen |= {(rnd, *cell) for cell in doings.flips} | {(rnd - 1, *cell) for cell in doings.peeks}
    return seen


def _table(state: State, seat: int | None, rng) -> tuple[State, list[str]]:
    """The face-down cards of the three boards (the rounds to come included) and the heat rule."""
    seen = seen_cards(state, seat)
    keep = {(rnd - 1, index(row, col)) for rnd, row, col in seen}
    boards = redraw_boards(rng, state.boards, keep, state.settings.diagonal_adjacency)
    rule = rng.choice(sorted(set(HEAT_RULES) - {state.heat_rule}))
    # The indicators the seat saw stay, as if the host had drawn them by hand; the others follow the new rule.
    pins = tuple(HeatOverride(*card, heat_at(state, *card)) for card in sorted(seen))
    changed = ["the heat rule and the hand-set indicators"]
    if boards is not None:
        moved = sum(
            a != b
            for old, new in zip(state.boards, boards, strict=True)
            for a, b in zip(old, new, strict=True)
        )
        changed.insert(0, f"{moved} face-down cards of the boards")
        state = replace(state, boards=boards)
    return replace(state, heat_rule=rule, heat_overrides=pins), changed


def _cycle(items: list) -> dict:
    """Each item to the next one: a shuffled cycle moves every item."""
    return dict(zip(items, items[1:] + items[:1], strict=True))


def _other_number(number):
    return None if number is None else number % len(NUMBERS) + 1


def _other_colour(colour) -> Colour | None:
    return None if colour is None else COLOURS[(COLOURS.index(Colour(colour)) + 1) % len(COLOURS)]


def _named(guessed: int | None, seat: int, players: int, rng) -> int | None:
    """Another player to name than the one named (never the guesser)."""
    choices = [s for s in range(players) if s not in (seat, guessed)]
    return rng.choice(choices) if choices else guessed


def _doings(state: State, seat: int | None, rng) -> tuple[State, list[str]]:
    """The other seats' cards, actions and guesses in the rounds played, and who scored what."""
    players = state.settings.players
    seats, heat = list(state.seats), list(state.heat_guesses)
    for other in (s for s in range(players) if s != seat):
        cells, actions = _cycle(rng.sample(CELLS, len(CELLS))), _cycle(rng.sample(ACTION_ORDER, 3))
        seats[other] = tuple(
            _another_round(doings, other, players, cells, actions, rng) if rnd <= state.round else doings
            for rnd, doings in enumerate(seats[other], start=1)
        )
        if heat[other] is not None:
            verdict = heat[other].verdict
            heat[other] = replace(
                heat[other],
                text=f"another guess {rng.randrange(10**6)}",
                verdict=None if verdict is None else not verdict,
            )
    state = replace(state, seats=tuple(seats), heat_guesses=tuple(heat))
    changed = ["the other seats' cards, actions and guesses"]
    if state.points:
        state = _scores(state, seat, rng)
        changed.append("who scored which points")
    return state, changed


def _another_round(doings: SeatRound, seat: int, players: int, cells: dict, actions: dict, rng) -> SeatRound:
    """Another legal round: each card moves along a shuffled cycle of the cells (a round's cards stay
    distinct) and one card more is turned, or none by a player who turned one; the actions move along a cycle
    of the three (each still used once); every guessed card, named player and card bought changes."""
    flips = [cells[c] for c in doings.flips]
    spare = [c for c in CELLS if c not in flips]
    flips = [*flips, *rng.sample(spare, min(1, len(spare)))] if len(flips) != 1 else []
    peeks = [cells[c] for c in doings.peeks]
    guess = doings.board_guess
    return replace(
        doings,
        flips=tuple(flips),
        peeks=tuple(peeks + [rng.choice(CELLS)] if peeks else peeks),
        declared=actions.get(doings.declared),
        action=actions.get(doings.action),
        board_guess=guess
        and tuple(GuessCell(_other_number(g.number), _other_colour(g.colour)) for g in guess),
        top_guess=None if doings.top_guess is None else _named(doings.top_guess, seat, players, rng),
    )


def _scores(state: State, seat: int | None, rng) -> State:
    """Nobody is told any seat's points before the end, their own included, and the lists are anonymous; a
    player who named another learns at the close whether that one topped the list. So points and places in
    the lists change hands, between seats standing alike at the tops the seat was told about."""
    told = [
        state.records[rnd - 2]
        for rnd in range(2, state.round)
        if seat is not None and state.seat_round(seat, rnd).top_guess is not None
    ]
    standing = defaultdict(list)
    for s in range(state.settings.players):
        standing[tuple(s in record.top for record in told)].append(s)
    to = {}
    for group in standing.values():
        to |= _cycle(rng.sample(group, len(group)))

    def by_seat(values: tuple) -> tuple:
        moved = list(values)
        for s, value in enumerate(values):
            moved[to[s]] = value
        return tuple(moved)

    return replace(
        state,
        points=tuple(replace(p, seat=to[p.seat]) for p in state.points),
        records=tuple(
            replace(
                r,
                primary=by_seat(r.primary),
                secondary=by_seat(r.secondary),
                top=tuple(sorted(to[s] for s in r.top)),
                guess_earners=tuple(sorted(to[s] for s in r.guess_earners)),
            )
            for r in state.records
        ),
    )


def _verdicts(game: Game, state: State, seat: int | None) -> str | None:
    """The hosts' verdicts on heat guesses: a player is told theirs at its round's close, no one else's."""
    verdicts = HeatVerdict.objects.filter(game=game)
    if seat is not None:
        verdicts = verdicts.exclude(seat__number=seat, round_number__lt=state.round)
    verdicts = list(verdicts)
    for verdict in verdicts:
        verdict.correct = not verdict.correct
        verdict.save(update_fields=["correct"])
    return f"{len(verdicts)} heat guess verdicts" if verdicts else None


def _submissions(kind, game: Game, state: State, seat: int | None, rng) -> str | None:
    """A new version of each other seat's latest submission in the open round, with another valid payload."""
    rnd = game.rounds.filter(status=Round.Status.OPEN).order_by("-number").first()
    if rnd is None:
        return None
    saved = 0
    for number, sub in sorted(latest_submissions(rnd).items()):
        payload = None if number == seat else _another_payload(state, number, rnd.number, sub.payload, rng)
        if payload is not None:
            payload = kind.clean_submission(game, sub.seat, rnd, payload)
            Submission.objects.create(round=rnd, seat=sub.seat, payload=payload, final=sub.final)
            saved += 1
    return f"{saved} submissions" if saved else None


def _another_payload(state: State, seat: int, round_number: int, old: dict, rng) -> dict | None:
    if round_number == ROUND_OF_LOSER_CHOICE:
        choices = [c for c in state.final.loser_candidates if c != old.get("loser")]
        return {"loser": rng.choice(choices)} if choices else None
    grid = (
        old.get("board_guess") or [[[rng.choice(NUMBERS), rng.choice(COLOURS)] for _ in range(SIZE)]] * SIZE
    )
    return {
        "board_guess": [[[_other_number(n), _other_colour(c)] for n, c in row] for row in grid],
        "top_guess": _named(old.get("top_guess"), seat, state.settings.players, rng)
        if round_number > 1
        else None,
        # a heat guess is made once: a new one only where the seat had one waiting for the host
        "heat_guess": f"another guess {rng.randrange(10**6)}" if old.get("heat_guess") else "",
    }


def _inboxes(game: Game, seat: int | None, rng) -> str | None:
    changed = other_inboxes(game, seat, rng, data_numbers=True)
    return f"{changed} inbox messages" if changed else None
