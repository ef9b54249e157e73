"""What a game of Cards on the Table holds between requests: settings, boards, every seat's doings, points."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum

from games.platform.kit import RulesError

from .boards import validate_boards
from .cards import ROUNDS, Action, Boards, Colour, HeatIndicator
from .generator import generate_boards
from .heat import HEAT_RULES
from .settings import Settings

Cell = tuple[int, int]  # (row, column), both 1-5


class Phase(StrEnum):
    PLAYING = "playing"
    CHOOSING_LOSER = "choosing_loser"  # still tied after the card sums: the winners pick the candidate
    ENDED = "ended"


@dataclass(frozen=True)
class GuessCell:
    """One cell of a board guess; a blank part counts as wrong."""

    number: int | None = None
    colour: Colour | None = None


@dataclass(frozen=True)
class SeatRound:
    """One seat's doings in one round."""

    flips: tuple[Cell, ...] = ()
    declared: Action | None = None  # declared before the second flip
    action: Action | None = None  # the action the second flip carried out
    undeclared: bool = False  # the second flip came with no declaration: -1 point
    board_guess: tuple[GuessCell, ...] | None = None  # 25 cells, row by row
    top_guess: int | None = None  # the seat guessed to top the previous round's primary list
    peeks: tuple[Cell, ...] = ()  # cards of the previous round bought with a garnet
    excused: bool = False  # a host excused the round: the action it misses is not asked (excuse_round)


@dataclass(frozen=True)
class HeatGuess:
    round: int
    text: str
    verdict: bool | None = None  # None until the host judges it


@dataclass(frozen=True)
class HeatOverride:
    """A host's hand-set heat indicator for one card."""

    round: int
    row: int
    col: int
    indicator: HeatIndicator


@dataclass(frozen=True)
class Points:
    """Points a seat scored or lost; round 0 is the end of the game."""

    seat: int
    round: int
    method: str
    delta: int
    note: str = ""


@dataclass(frozen=True)
class RoundRecord:
    """What the close of a round settled."""

    round: int
    primary: tuple[int, ...]  # each seat's points that round (shown to players anonymous, sorted)
    top: tuple[int, ...]  # the seats with the most points that round
    guess_earners: tuple[int, ...]  # seats that earned a point this round guessing the previous round's top
    secondary: tuple[int, ...] = ()  # each seat's total so far (published after Round 2)


@dataclass(frozen=True)
class Final:
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    tokens_of_life: tuple[int, ...]
    garnets: tuple[int, ...]  # garnets earned by each seat
    card_sums: tuple[int, ...]  # the sum of every card each seat turned over (the loser's tie-break)
    loser_candidates: tuple[int, ...]  # the seats still tied for fewest points after the card sums
    loser: int | None = None


@dataclass(frozen=True)
class State:
    settings: Settings
    boards: Boards
    heat_rule: str
    seats: tuple[tuple[SeatRound, ...], ...]  # seats[seat][round - 1]
    heat_guesses: tuple[HeatGuess | None, ...]
    round: int = 1
    phase: Phase = Phase.PLAYING
    heat_overrides: tuple[HeatOverride, ...] = ()
    points: tuple[Points, ...] = ()
    records: tuple[RoundRecord, ...] = ()
    final: Final | None = field(default=None)

    def seat_round(self, seat: int, rnd: int | None = None) -> SeatRound:
        return self.seats[seat][(rnd or self.round) - 1]


def new_game(
    settings: Settings | None = None, rng: random.Random | None = None, boards: Boards | None = None
):
    """A game at the start of Round 1: the host's boards (checked) or boards generated from rng."""
    settings = settings or Settings()
    if settings.players < 2:
        raise RulesError("Cards on the Table needs at least 2 players.", field="players")
    if boards is None:
        if rng is None:
            raise RulesError("Either enter the three boards or give a seed to generate them.", field="boards")
        boards = generate_boards(rng, settings.diagonal_adjacency)
    else:
        boards = tuple(tuple(board) for board in boards)
        violations = validate_boards(boards, settings.diagonal_adjacency)
        if violations:
            raise RulesError(
                "The boards break the Rules of the Boards: " + " ".join(v.message for v in violations),
                field="boards",
            )
    heat_rule = settings.heat_rule
    if heat_rule is None:
        if rng is None:
            raise RulesError("Choose a heat rule or give a seed to draw one.", field="heat_rule")
        heat_rule = rng.choice(sorted(HEAT_RULES))
    if heat_rule not in HEAT_RULES:
        raise RulesError(f"There is no heat rule called {heat_rule!r}.", field="heat_rule")
    return State(
        settings=settings,
        boards=boards,
        heat_rule=heat_rule,
        seats=tuple(tuple(SeatRound() for _ in range(ROUNDS)) for _ in range(settings.players)),
        heat_guesses=(None,) * settings.players,
    )
