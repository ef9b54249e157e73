"""The host-run game type: the hosts write the rules, the round forms and each round's results.

One class, registered twice (apps.py): a Main Match and a Death Match."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from django.urls import reverse

from games.platform.errors import NotReady
from games.platform.kit import Announce, RulesError
from games.platform.models import Game, Round
from games.platform.observation import current_round
from games.platform.registry import DEATH_MATCH, GameType, Outcome
from genius.clock import site_now

from .describe import describe_submission
from .forms import RoundForm
from .hidden import design_problems, hidden_set, private_of, snapshot
from .models import Design, Field, PrivateColumn, PrivateValue, Resolution
from .names import seat_names
from .observation import observe, public_state
from .perturb import hidden_perturb
from .rules import apply_resolution, new_game, round_fields
from .rules.fields import clean_answers, json_schema
from .rules.state import has_round, opens_by_hand, window_of
from .settings import DESCRIBED, default_settings, settings_problems, window_minutes
from .store import dump, load

DEMO_RULES = """# The Vault (a demo)

Each round you **bid** for the vault's key and may name a player you **suspect**.

| Round | What happens |
|---|---|
| 1 | Bids open |
| 2 | Bids and suspicions |
| 3 | The last bids |

The highest bid wins 3 points; the lowest loses 1. The hosts tell you your role privately.
"""


def resolution_data(resolution: Resolution) -> dict:
    """A sent Resolution row and its seat results as the rules take it."""
    return resolution.as_rules_data()


class HostRun(GameType):
    flow = "rounds"
    min_players = 2
    max_players = 30
    page_template = "host_run/page.html"
    guide_file = str(Path(__file__).with_name("guide.md"))
    rulings_slug = "host_run"  # one set of rulings for both: the Death Match plays by the Main Match's
    hidden_words = "the design"  # its rules, rounds, questions, private values and notes: one admin page

    def __init__(self, slug: str, name: str, match_kind: str, min_players: int = 2, max_players: int = 30):
        self.slug = slug
        self.name = name
        self.match_kind = match_kind
        self.min_players = min_players
        self.max_players = max_players

    # -- set-up -----------------------------------------------------------------------------------------
    def default_settings(self) -> dict:
        return default_settings()

    def settings_described(self):
        return list(DESCRIBED)

    def settings_problems(self, settings: dict) -> list[str]:
        return settings_problems(settings)

    def hidden_problems(self, game) -> list[str]:
        return design_problems(game)

    def hidden_data(self, game) -> dict:
        """The private values, the hosts' notes, and the scores while the scoreboard is hidden."""
        if game.state:
            state = game.state
            data = {"private": state.get("private") or {}, "notes": state.get("notes") or ""}
            if not state.get("scoreboard_public"):
                data["scores"] = state.get("scores") or {}
            return data
        design = Design.objects.filter(game=game).first()
        if design is None:
            return {"private": None, "notes": None}
        seats = sorted(game.seats.values_list("number", flat=True))
        return {"private": private_of(design, seats)[1], "notes": design.notes}

    def game_rules(self, game) -> str:
        """The hosts' rules text: as it stood at the start once the game runs, else the design's."""
        if game.state:
            return game.state.get("rules") or ""
        design = Design.objects.filter(game=game).first()
        return design.rules if design is not None else ""

    def hidden_data_set(self, game, data: dict) -> None:
        """The API's way to set a game up before the start: each seat's private values and the hosts' notes
        (as `hidden_data` gives them), and any public part of the design (rules, board, rounds, window,
        opened_by_hand, scoreboard_public, forms), each checked (RulesError names the part)."""
        hidden_set(game, data)

    def demo_prepare(self, game) -> None:
        """A three-round demo: a game form of five kinds, a private "Role" per seat, notes, a board."""
        if Design.objects.filter(game=game).exists():
            return
        design = Design.objects.create(
            game=game,
            rules=DEMO_RULES,
            rounds=3,
            window=30,
            window_unit="minutes",
            board="| Vault | Key |\n|---|---|\n| closed | unclaimed |",
            notes="The key is in the third drawer; the Spy wins ties.",
        )
        Field.objects.bulk_create(
            [
                Field(design=design, order=1, kind="number", label="Bid", minimum=0, maximum=10),
                Field(design=design, order=2, kind="player", label="Suspect", required=False),
                Field(design=design, order=3, kind="choice", label="Door", options="Red\nBlue\nGreen"),
                Field(design=design, order=4, kind="yes_no", label="Share the key?", required=False),
                Field(design=design, order=5, kind="short_text", label="Note to the hosts", required=False),
            ]
        )
        column = PrivateColumn.objects.create(design=design, order=1, name="Role")
        roles = ["Spy", "Guard", "Thief", "Clerk"]
        PrivateValue.objects.bulk_create(
            [
                PrivateValue(column=column, seat=seat, value=roles[seat.number % len(roles)])
                for seat in game.seats.all()
            ]
        )

    def start(self, game) -> Outcome:
        state = new_game(snapshot(game, self.match_kind == DEATH_MATCH))
        title = state["plans"].get("1", {}).get("title")
        return Outcome(
            state=dump(state), events=[Announce("Round 1 begins" + (f": {title}." if title else "."))]
        )

    # -- rounds -----------------------------------------------------------------------------------------
    def first_round(self, game) -> int:
        return 1

    def round_window(self, game, number: int) -> timedelta | None:
        if not game.state or not has_round(game.state, number):
            return None
        minutes = window_minutes(game.settings)
        if minutes:
            return timedelta(minutes=minutes)  # the demo's (or a test's) windows, over the design's
        amount, unit = window_of(game.state, number)
        return timedelta(minutes=amount) if unit == "minutes" else timedelta(hours=amount)

    def round_opens_by_hand(self, game, number: int) -> bool:
        """Whether round `number` waits for a host's "Open Round N" (the plan's or the game's choice)."""
        return bool(game.state) and has_round(game.state, number) and opens_by_hand(game.state, number)

    def _players(self, game) -> dict[int, str]:
        # "one of the game's players": any seat, oneself included (docs/rulings/host_run.md).
        return seat_names(game)

    def clean_submission(self, game, seat, round, payload) -> dict:
        state = load(game)
        if state.get("final") is not None:
            raise RulesError("The game is over.", field="round")
        return clean_answers(round_fields(state, round.number), payload, self._players(game))

    def round_form_schema(self, game, round) -> dict | None:
        """The JSON Schema of the round's form: the hosts' questions, a player question's enum the seats."""
        if not game.state:
            return None
        return json_schema(round_fields(game.state, round.number), self._players(game))

    def submission_form(self, game, seat, round, data=None, initial=None):
        state = load(game)
        fields = round_fields(state, round.number)
        if not fields:
            return None
        return RoundForm(fields, self._players(game), data=data, initial=initial)

    def form_to_payload(self, form) -> dict:
        payload = getattr(form, "payload", None)
        return dict(payload) if payload is not None else dict(form.cleaned_data)

    def resolve_round(self, game, round, submissions) -> Outcome:
        resolution = (
            Resolution.objects.filter(game=game, round_number=round.number, sent_at__isnull=False)
            .select_related("candidate")
            .first()
        )
        if resolution is None:
            raise NotReady(f"Closed: the hosts are working out the results of Round {round.number}.")
        data = {**resolution_data(resolution), "game_name": game.name}  # the ledger's reasons name it
        state, events = apply_resolution(load(game), data)
        return Outcome(state=dump(state), events=events, finished=state.get("final") is not None)

    def describe_submission(self, game, payload) -> str:
        # The console describes the latest round's submissions: by that round's own form, where it has one.
        rnd = current_round(game)
        return describe_submission(game, payload, rnd.number if rnd is not None and game.state else None)

    def console_links(self, game) -> list[tuple[str, str]]:
        """The hosts' resolve page of the round now open or closed and waiting for them; once the game
        started, its design (read-only: before the start the console's hidden-data link is it); and "Copy
        this game" while it has a design."""
        links = self._resolve_link(game)
        design = Design.objects.filter(game=game).values_list("pk", flat=True).first()
        if design is not None:
            if game.status not in (Game.Status.DRAFT, Game.Status.SEEDING):
                links.append(
                    (
                        "The design (read-only since the start)",
                        reverse("admin:host_run_design_change", args=[design]),
                    )
                )
            links.append(("Copy this game", reverse("admin:host_run_design_copy", args=[design])))
        return links

    def _resolve_link(self, game) -> list[tuple[str, str]]:
        rnd = game.rounds.filter(status=Round.Status.OPEN).order_by("-number").first()
        if game.status != Game.Status.RUNNING or rnd is None or (game.state or {}).get("final") is not None:
            return []
        url = reverse("admin:host_run_resolution_resolve", args=[game.pk])
        if rnd.remaining_when_paused is None and rnd.closes_at <= site_now():
            return [(f"Write the results of Round {rnd.number}", url)]
        return [(f"Prepare the results of Round {rnd.number} (a draft while it is open)", url)]

    # -- the season around the game ---------------------------------------------------------------------
    def elimination_candidate(self, game) -> int | None:
        return ((game.state or {}).get("final") or {}).get("candidate")

    def match_loser(self, game) -> int | None:
        return ((game.state or {}).get("final") or {}).get("candidate")

    # -- the one door -----------------------------------------------------------------------------------
    def observation(self, game, viewer) -> dict:
        return observe(game, viewer)

    def public_state(self, state: dict) -> dict:
        return public_state(state)

    def hidden_perturb(self, game, seat_number: int | None, rng) -> list[str]:
        return hidden_perturb(self, game, seat_number, rng)
