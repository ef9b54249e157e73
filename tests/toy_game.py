"""A small game type that lives in tests only: it proves the registry needs no platform change per game.

Tally: each round every player picks a number 0-10 in secret; the round announces the total and each
player is told their own pick and scores it as points. Tally Duel is its live cousin on turn clocks.
"""

from __future__ import annotations

from datetime import timedelta

from django import forms

from games.platform.kit import Announce, Ledger, Reveal, RulesError
from games.platform.registry import DEATH_MATCH, MAIN_MATCH, GameType, Outcome, Pending


class TallyForm(forms.Form):
    number = forms.IntegerField(
        label="Your number",
        min_value=0,
        max_value=10,
        error_messages={
            "min_value": "Pick a number from 0 to 10.",
            "max_value": "Pick a number from 0 to 10.",
        },
    )
    secret_note = forms.CharField(required=False, max_length=50)


class Tally(GameType):
    slug = "tally"
    name = "Tally (test game)"
    match_kind = MAIN_MATCH
    flow = "rounds"
    min_players = 2
    max_players = 12

    def default_settings(self):
        return {"rounds": 3, "window_minutes": 60, "explode_on_round": None, "close_when_all_final": False}

    def settings_problems(self, settings):
        return [] if 1 <= int(settings.get("rounds", 0)) <= 20 else ["rounds must be 1-20"]

    def hidden_problems(self, game):
        return [] if game.settings.get("secret") != "missing" else ["the secret is missing"]

    def hidden_data(self, game):
        return {"secret_word": game.settings.get("secret_word", "CANARY-SECRET-WORD")}

    def start(self, game):
        return Outcome(
            state={"totals": [0] * game.seats.count(), "picks": {}, "secret": "CANARY-TALLY-SECRET"}
        )

    def round_window(self, game, number):
        if number >= game.settings["rounds"]:
            return None
        return timedelta(minutes=game.settings["window_minutes"])

    def clean_submission(self, game, seat, round, payload):
        try:
            number = int(payload.get("number"))
        except (TypeError, ValueError):
            raise RulesError("Pick a number from 0 to 10.", field="number") from None
        if not 0 <= number <= 10:
            raise RulesError("Pick a number from 0 to 10.", field="number")
        if number == 7 and game.state["totals"][seat.number] >= 20:
            raise RulesError("You may not pick 7 once you have 20 points.", field="number")
        return {"number": number, "secret_note": str(payload.get("secret_note", ""))[:50]}

    def submission_form(self, game, seat, round, data=None, initial=None):
        return TallyForm(data=data, initial=initial)

    def resolve_round(self, game, round, submissions):
        from games.platform.services.ledger import ledger_post

        if game.settings.get("hang_on_round") == round.number:
            # Written inside the transaction, then the process hangs until a test kills it.
            import pathlib
            import time

            seat = game.seats.first()
            ledger_post(
                season=game.season, user=seat.user, what="garnets", delta=77, reason="half-way", game=game
            )
            pathlib.Path(game.settings["hang_flag"]).write_text("inside")
            time.sleep(120)
        if game.settings.get("explode_on_round") == round.number:
            # Write something first, so the test can see the rollback takes it back too.
            seat = game.seats.first()
            ledger_post(
                season=game.season, user=seat.user, what="garnets", delta=99, reason="half-way", game=game
            )
            raise RuntimeError("the rules blew up half-way")
        state = dict(game.state)
        totals = list(state["totals"])
        events = []
        for number, payload in sorted(submissions.items()):
            totals[number] += payload["number"]
            events.append(Reveal(number, f"Round {round.number}: you picked {payload['number']}."))
            if payload["number"]:
                events.append(Ledger(number, "points", payload["number"], f"Round {round.number} pick"))
        events.append(
            Announce(
                f"Round {round.number} total: {sum(p['number'] for p in submissions.values())}.",
                {"submitted": len(submissions)},
            )
        )
        state["totals"] = totals
        state["picks"] = {
            **state["picks"],
            str(round.number): {str(k): v["number"] for k, v in submissions.items()},
        }
        return Outcome(state=state, events=events)

    def describe_submission(self, game, payload):
        note = f", note “{payload['secret_note']}”" if payload.get("secret_note") else ""
        return f"picks {payload.get('number')}{note}"

    def elimination_candidate(self, game):
        totals = game.state["totals"]
        return min(range(len(totals)), key=lambda seat: (totals[seat], seat))

    def hidden_perturb(self, game, seat_number, rng):
        from games.platform.models import Submission

        others = [n for n in range(len(game.state["totals"])) if n != seat_number]
        state = dict(game.state)
        state["totals"] = [t + rng.randint(1, 5) if n in others else t for n, t in enumerate(state["totals"])]
        state["picks"] = {
            r: {s: (v + 1) % 11 if int(s) in others else v for s, v in picks.items()}
            for r, picks in state["picks"].items()
        }
        state["secret"] = f"perturbed-{rng.random()}"
        game.state = state
        game.settings = {**game.settings, "secret_word": f"perturbed-{rng.random()}"}
        game.save(update_fields=["state", "settings"])
        rnd = game.rounds.order_by("-number").first()
        resaved = 0
        for sub in Submission.objects.filter(round=rnd).exclude(seat__number=seat_number).order_by("id"):
            payload = {"number": (sub.payload["number"] + 3) % 11, "secret_note": f"perturbed {rng.random()}"}
            Submission.objects.create(round=rnd, seat=sub.seat, payload=payload, final=sub.final)
            resaved += 1
        return [
            "the other players' totals and picks",
            "the secret",
            "the secret word",
            f"{resaved} submissions",
        ]

    def observation(self, game, viewer):
        state = game.state or {}
        if viewer.role == "host" or game.status == "finished":
            return state
        public = {"rounds_played": len(state.get("picks", {}))}
        if viewer.role == "player":
            public["my_total"] = state["totals"][viewer.seat.number]
        return public


class TallyByHand(Tally):
    """Tally whose rounds after the first wait for a host's "Open Round N" (GameType.round_opens_by_hand)."""

    slug = "tally_by_hand"
    name = "Tally by hand (test game)"

    def first_round(self, game):
        return 1  # rounds 1 and 2 with the default three: Round 2 opens by hand

    def round_opens_by_hand(self, game, number):
        return number >= 2


class TallyDuel(GameType):
    """Players alternate; each turn says a number; a player out of time and reserve loses."""

    slug = "tally_duel"
    name = "Tally Duel (test game)"
    match_kind = DEATH_MATCH
    flow = "turns"
    min_players = 2
    max_players = 2

    def default_settings(self):
        return {"turn_seconds": 60, "reserve_seconds": 60, "increment": 30, "target": 10}

    def start(self, game):
        return Outcome(state={"turn": 0, "turn_no": 0, "said": [], "loser": None, "asks": None})

    def pending(self, game):
        state = game.state
        if state.get("loser") is not None:
            return None
        key = str(state["turn_no"])
        if state.get("asks") is not None:
            return Pending(seat_number=state["asks"], kind="answer", seconds=60, turn_key=key)
        if state.get("answered"):
            # Back to the turn's owner after the other's answer: no extra time, only what was banked.
            return Pending(seat_number=state["turn"], kind="after answer", seconds=0, turn_key=key)
        return Pending(
            seat_number=state["turn"], kind="turn", seconds=game.settings["turn_seconds"], turn_key=key
        )

    def reserve_seconds(self, game):
        return game.settings["reserve_seconds"]

    def reserve_increment(self, game):
        return game.settings["increment"]

    def apply_action(self, game, seat, payload):
        state = dict(game.state)
        owner = state["asks"] if state["asks"] is not None else state["turn"]
        if seat.number != owner:
            raise RulesError("It is not your move.", field="payload")
        number = payload.get("say")
        if not isinstance(number, int) or not 1 <= number <= 3:
            raise RulesError("Say 1, 2 or 3.", field="say")
        state["said"] = [*state["said"], [seat.number, number]]
        events = [Announce(f"Seat {seat.number + 1} says {number}.")]
        if payload.get("ask"):
            state["asks"] = 1 - seat.number
        elif state["asks"] is not None:
            state["asks"] = None
            state["answered"] = True
        else:
            state["turn"] = 1 - state["turn"]
            state["turn_no"] += 1
            state["answered"] = False
        finished = sum(n for _, n in state["said"]) >= game.settings["target"]
        return Outcome(state=state, events=events, finished=finished)

    def on_clock_expired(self, game, seat_number):
        state = {**game.state, "loser": seat_number}
        return Outcome(
            state=state,
            events=[Announce(f"Seat {seat_number + 1} ran out of time and loses.")],
            finished=True,
        )

    def describe_submission(self, game, payload):
        return f"says {payload.get('say')}{' and asks' if payload.get('ask') else ''}"

    def match_loser(self, game):
        return game.state.get("loser")

    def observation(self, game, viewer):
        return {"said": game.state.get("said", []), "loser": game.state.get("loser")}

    def hidden_perturb(self, game, seat_number, rng):
        return []  # everything said is said aloud


def register():
    """Called by the platform for GENIUS_GAME_MODULES=tests.toy_game (worker subprocesses of the tests)."""
    from games.platform import registry

    registry.register(Tally())
    registry.register(TallyDuel())
