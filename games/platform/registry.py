"""The registry of game types: each game app registers one; the platform knows no game by name."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from . import setting
from .kit import Announce, Ledger, Reveal, RulesError
from .setting import NUMBER, Setting

if TYPE_CHECKING:
    from django import forms

    from .models import Game, Round, Seat


@dataclass
class Viewer:
    """Who is looking: a seated player, a host of this game, or a spectator (logged in or not)."""

    role: str  # "player", "host" or "spectator"
    seat: Seat | None = None
    user: Any = None

    @property
    def seat_number(self) -> int | None:
        return self.seat.number if self.seat is not None else None


@dataclass
class Pending:
    """A live match's next move: who owes it, what it is, and how long they get for it."""

    seat_number: int
    kind: str
    seconds: float  # a fresh turn's allowance, or the extra time this interaction adds to the turn
    turn_key: str = ""  # the same key as the previous move means "the same turn goes on"


@dataclass
class Verdict:
    """A host's verdict that a round waits for (or that was given), judged from the host's console.

    `answers` maps each button's words ("Right", "Wrong") to the payload of the game's `operation` that gives
    that verdict; the console runs the operation as the host, so the game checks it as it always does.
    """

    seat_number: int
    player: str
    question: str  # what is judged, in the game's words: 'Heat indicator guess: "black is hotter"'
    operation: str
    answers: dict[str, dict]
    given: str | None = None  # the answer already given, or None while the round waits for it


@dataclass
class Deciders:
    """Who decides a round that only some seats decide: the decision in the game's words ("the winner's
    choice") and the seats (numbers from 0) that decide it. The console lists and counts only these."""

    what: str
    seats: list[int]


@dataclass
class Outcome:
    """What a resolution or an action did: the new rules state, its events, and whether the game is over."""

    state: dict
    events: list[Announce | Reveal | Ledger] = field(default_factory=list)
    finished: bool = False


# What a game is to its season: a Main Match names its Elimination Candidate, a Death Match its loser.
MAIN_MATCH = "main_match"
DEATH_MATCH = "death_match"
# The hook each kind of match must define (the contract; `register` refuses a type without it).
SEASON_HOOK = {MAIN_MATCH: "elimination_candidate", DEATH_MATCH: "match_loser"}


class GameType:
    """The contract between the platform and a game. A game app subclasses it and calls `register`."""

    slug: str = ""
    name: str = ""
    match_kind: str = ""  # MAIN_MATCH or DEATH_MATCH: which season hook the platform calls at the end
    flow: str = "rounds"  # "rounds" (Main Match windows) or "turns" (live match with clocks)
    min_players: int = 2
    max_players: int = 30
    page_template: str = "platform/game_state.html"  # renders the observation's "state" part
    pair_template: str | None = None  # shown on a pair chat page (e.g. the horse race's trade offers)
    poll_seconds: float = 3  # how often pages ask for news; live matches use 1 to stay within 2 s
    guide_file: str | None = None  # the player's guide (Markdown, the app's guide.md): the rules page
    rulings_slug: str | None = None  # whose docs/rulings/<slug>.md it plays by, when not its own slug's
    hidden_words: str = "the hidden data"  # what the hosts' console calls it: "Enter the hidden data"
    # The round form below the game's own part of the page instead of above it: for a form about the board
    # shown there (Cards on the Table's guess of the board sits after the board).
    form_after_state: bool = False

    # -- set-up -------------------------------------------------------------------------------------------
    def default_settings(self) -> dict:
        return {}

    def settings_described(self) -> list[Setting]:
        """Every setting a host may change (name, kind, range, default, help): `settings_problems` checks
        them by kind and range, and a host's form can be drawn from them."""
        return []

    def settings_problems(self, settings: dict) -> list[str]:
        """What is wrong with these settings, one message each; a game type adds the checks that span
        several settings (or the rules' own) to the described ones."""
        return setting.problems(settings, self.settings_described())

    def hidden_problems(self, game: Game) -> list[str]:
        """What is missing or wrong in the hidden host data; a game with problems cannot start."""
        return []

    def hidden_data(self, game: Game) -> dict:
        """The hosts' secret data, revealed to everyone when the game ends."""
        return {}

    def hidden_data_set(self, game: Game, data: dict) -> None:
        """Store the hosts' hidden data from the shape hidden_data returns (the API's way to seed a game).

        Check the shape here (RulesError); the rules' own checks are hidden_problems, shown to the host.
        """
        raise RulesError("This game has no hidden data to set.", field="hidden")

    def game_rules(self, game: Game) -> str:
        """This game's own rules, where its hosts write them (Markdown, shown with raw HTML as text on the
        game's rules page, /games/<id>/rules/); "": the type's guide is the whole of its rules."""
        return ""

    def demo_prepare(self, game: Game) -> None:
        """Seed the hidden data of a demo game (e.g. draw it from the game's seed), before it starts."""

    def start(self, game: Game) -> Outcome:
        raise RulesError("This game type does not say how to start.")

    # -- rounds -------------------------------------------------------------------------------------------
    def first_round(self, game: Game) -> int:
        return 0

    def round_window(self, game: Game, number: int) -> timedelta | None:
        """How long round `number` stays open; None when there is no such round."""
        return None

    def round_opens_by_hand(self, game: Game, number: int) -> bool:
        """The round `number` exists (round_window gives its length) but waits for a host's "Open Round N"
        (services.games.round_open_by_hand) instead of opening when the previous one resolves."""
        return False

    def clean_submission(self, game: Game, seat: Seat, round: Round, payload: dict) -> dict:
        """Check a submission against the seat's current state; raise RulesError(field=...) if it is wrong."""
        return payload

    def submission_form(
        self, game: Game, seat: Seat, round: Round, data=None, initial=None
    ) -> forms.Form | None:
        return None

    def round_form_schema(self, game: Game, round: Round) -> dict | None:
        """A JSON Schema of `round`'s submission payload, for a game whose form is data (the API's
        /round-form/ route publishes it). None: this game type describes its form in its guide."""
        return None

    def owed(self, game: Game, seat: Seat, round: Round) -> str | None:
        """What the open round asks of this seat, for "awaiting you": "submission", "decision", or None
        where it asks nothing of them (a decision round where others decide)."""
        return "submission"

    def form_to_payload(self, form: forms.Form) -> dict:
        return dict(form.cleaned_data)

    def resolve_round(self, game: Game, round: Round, submissions: dict[int, dict]) -> Outcome:
        return Outcome(state=game.state)

    def describe_submission(self, game: Game, payload: dict) -> str:
        """One saved submission (a turns game: one move) in the game's own words, for the hosts' console:
        "Clue with A×2; spectate 4; bets D:3", never JSON. Only a game's hosts read it."""
        raise NotImplementedError(f"{self.slug} does not say how to describe a submission")

    def deciders(self, game: Game, round: Round) -> Deciders | None:
        """Who decides `round`, where the rules give it to a few seats (the horse race's winner's choice and
        its EC vote); None: every seat submits. Only a game whose pages name the deciders to everyone says
        so here, though only the hosts' console reads it."""
        return None

    def console_links(self, game: Game) -> list[tuple[str, str]]:
        """Pages of the game's own the hosts' console links to beside the round's words, as (words, url):
        "Write the results of Round 2" where the hosts work out a round's results on a page of their own."""
        return []

    def verdicts(self, game: Game) -> list[Verdict]:
        """The hosts' verdicts this round needs (given or not): the console lists those still waiting, with
        a button per answer. A round that waits for one raises NotReady from `resolve_round`."""
        return []

    def round_excuse(self, game: Game, seat_number: int, round_number: int) -> str:
        """A host excused the seat's missed round (issue 29.5): apply what that means in the game's rules to
        `game.state` (the caller saves it, with the record) and say it in words, or raise RulesError when it
        cannot be excused. The default is a game whose rules cost a missed round nothing beyond what was not
        done: the excuse is recorded, and changes nothing."""
        return "Its rules cost a missed round nothing more than what was not done: the excuse is recorded."

    # -- turns --------------------------------------------------------------------------------------------
    def pending(self, game: Game) -> Pending | None:
        return None

    def apply_action(self, game: Game, seat: Seat, payload: dict) -> Outcome:
        raise RulesError("This game has no live moves.")

    def on_clock_expired(self, game: Game, seat_number: int) -> Outcome:
        """A live player's time and reserve ran out; the game decides what follows."""
        return Outcome(state=game.state)

    def on_absent(self, game: Game, seat_numbers: list[int]) -> Outcome:
        """Players not at the table when the start time came, and the hosts chose that an absent player
        loses (issue 20.1): the game decides what their loss is, naming its loser through `match_loser` or
        `elimination_candidate` as it would after a played game. The default: the first absent seat's
        clock ran out before the first move."""
        return self.on_clock_expired(game, seat_numbers[0])

    def reserve_seconds(self, game: Game) -> float:
        return 0.0

    def reserve_increment(self, game: Game) -> float:
        return 30.0

    def deciding_seats(self, game: Game) -> list[int] | None:
        """Every seat the live match waits on now, when several decide at once (Arms Race's wild card
        break); None: the clock's seat alone. Every viewer is told who they are ("Waiting for ann, ben and 4
        others"), so a game returns them only where the rules make who decides public."""
        return None

    def offers_waiting(self, seats: list[Seat]) -> dict[int, int]:
        """How many offers made to each of these seats (one player's, all in running games of this type)
        wait for that player's answer, by seat id (the horse race's trade offers), for "awaiting you": one
        query for all of them. The default: none, and no query."""
        return {}

    # -- operations between rounds or at any time (trades, purchases, flips): name -> handler ------------
    def operations(self) -> dict:
        """Named operations a viewer may run: handler(game, viewer, payload) -> Outcome, or RulesError."""
        return {}

    # -- the season around the game (a Main Match defines the first, a Death Match the second) -----------
    def elimination_candidate(self, game: Game) -> int | None:
        """A finished Main Match's Elimination Candidate (a seat number), who then picks a Death Match
        opponent; None only when the rules name nobody (the hosts then decide)."""
        raise NotImplementedError(f"{self.slug} does not name its Elimination Candidate")

    def match_loser(self, game: Game) -> int | None:
        """A finished Death Match's loser (a seat number), eliminated unless a Token of Life is spent;
        None for a draw (the hosts then decide)."""
        raise NotImplementedError(f"{self.slug} does not name its loser")

    # -- the one door for game state ----------------------------------------------------------------------
    def observation(self, game: Game, viewer: Viewer) -> dict:
        """What `viewer` may see of the game's state. Nothing else serializes it."""
        return {}

    def public_state(self, state: dict) -> object:
        """What spectators see of a rules state (`game.state` as stored). An operation whose outcome leaves
        it equal, and announces nothing, is private: it moves the stamps of the seats it names and the
        hosts', never the version spectators poll (issue 17.7). The default, all of it, keeps every change
        of the state public; a game with private operations returns its rules' public view."""
        return state

    # -- the proof that nothing hidden leaks (tests/proof/test_hidden_perturbation.py) --------------------
    def hidden_perturb(self, game: Game, seat_number: int | None, rng) -> list[str]:
        """Change, in the database, everything of this running game that `seat_number` may not see.

        With None, everything hidden from spectators. The new values have the same shape and keep the game
        playable (another board card, movement value, hand, secret number); what the seat may see stays as
        it is. Return what was changed, in words ([] only for a game with nothing hidden). The leak test
        requests every URL as that seat (or as spectators and outsiders) before and after and requires the
        same answers, while the host's view must change: so every hidden field a game adds must be covered
        here, and a game that forgets one fails the test when that field shows.
        """
        raise NotImplementedError(f"{self.slug} does not say how to perturb its hidden information")


def window_settings(hours: dict[str, tuple[float, str]]) -> list[Setting]:
    """The round-window settings every Main Match shares: {key: (default hours, help)} for its windows,
    and the demo's window_minutes."""
    described = [Setting(key, NUMBER, default, words, above=0) for key, (default, words) in hours.items()]
    described.append(
        Setting(
            "window_minutes",
            NUMBER,
            None,
            "Every window lasts this many minutes instead (demos, tests).",
            above=0,
        )
    )
    return described


def window_settings_problems(settings: dict, hour_keys) -> list[str]:
    """The round-window settings every Main Match shares: hours above 0 (required), and the demo's
    window_minutes (absent, null, or above 0)."""
    problems = [f"{key} is missing: a number of hours above 0." for key in hour_keys if key not in settings]
    described = [s for s in window_settings(dict.fromkeys(hour_keys, (24, ""))) if s.key in settings]
    if settings.get("window_minutes") is None:
        described = [s for s in described if s.key != "window_minutes"]
    return problems + setting.problems(settings, described)


_registry: dict[str, GameType] = {}


def contract_problems(game_type: GameType) -> list[str]:
    """What a game type leaves out of the contract: its kind of match and the season hook that kind needs."""
    if game_type.match_kind not in SEASON_HOOK:
        kind = game_type.match_kind
        return [f"{game_type.slug}: match_kind must be MAIN_MATCH or DEATH_MATCH, not {kind!r}"]
    hook = SEASON_HOOK[game_type.match_kind]
    if getattr(type(game_type), hook) is getattr(GameType, hook):
        words = "Main Match" if game_type.match_kind == MAIN_MATCH else "Death Match"
        return [f"{game_type.slug}: a {words} must define {hook}(game)"]
    return []


def register(game_type: GameType) -> GameType:
    if not game_type.slug:
        raise ValueError("A game type needs a slug.")
    problems = contract_problems(game_type)
    if problems:
        raise ValueError("; ".join(problems))
    _registry[game_type.slug] = game_type
    return game_type


def unregister(slug: str) -> None:
    _registry.pop(slug, None)


def get(slug: str) -> GameType:
    try:
        return _registry[slug]
    except KeyError:
        raise LookupError(f"No game type called {slug!r} is registered.") from None


def all_types() -> list[GameType]:
    return sorted(_registry.values(), key=lambda t: t.name)


def choices() -> list[tuple[str, str]]:
    return [(t.slug, t.name) for t in all_types()]
