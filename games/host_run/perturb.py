"""The leak test's tool: change everything of a running host-run game that one seat (or the spectators) may
not see.

A seat sees its own private values, its own points, its own submissions and inbox, and what is public (the
rules, the board, the public results, the scores when the scoreboard is public). So the other seats' private
values, the hosts' notes, the hidden scores of the others, the other seats' submissions in the open round,
their inbox messages and the hosts' draft resolutions change. Once the game is over all of it is public.
"""

from __future__ import annotations

from games.platform.models import Game, Round, Submission
from games.platform.perturbation import other_inboxes
from games.platform.services.rounds import latest_submissions

from .models import Design, PrivateValue, Resolution
from .names import seat_names
from .rules import round_fields
from .store import dump, load


def hidden_perturb(kind, game: Game, seat: int | None, rng) -> list[str]:
    if game.status == Game.Status.FINISHED:
        return []  # the end reveals everything
    state = load(game)
    changed = []
    others = [s for s in state["private"] if seat is None or int(s) != seat]
    for other in others:
        for column in state["columns"]:
            state["private"][other][column] = (
                f"{state['private'][other][column]} (another {rng.randrange(10**6)})"
            )
    if others and state["columns"]:
        changed.append("the other seats' private values")
    state["notes"] = f"Other notes {rng.randrange(10**6)}"
    changed.append("the hosts' notes")
    if not state.get("scoreboard_public"):
        for other in state["scores"]:
            if seat is None or int(other) != seat:
                state["scores"][other] += rng.randint(1, 9)
        changed.append("the hidden scores")
    game.state = dump(state)
    game.save(update_fields=["state"])
    _design(game, state)
    changed += [_submissions(kind, game, state, seat, rng), _drafts(game, rng), _inboxes(game, seat, rng)]
    return [c for c in changed if c]


def _design(game: Game, state: dict) -> None:
    """The design's rows say what the game started with: they follow the perturbed snapshot."""
    design = Design.objects.filter(game=game).first()
    if design is None:
        return
    Design.objects.filter(pk=design.pk).update(notes=state["notes"])
    for row in PrivateValue.objects.filter(column__design=design).select_related("column", "seat"):
        value = state["private"].get(str(row.seat.number), {}).get(row.column.name)
        if value is not None and value != row.value:
            row.value = value
            row.save(update_fields=["value"])


def another_answer(field: dict, old, players: list[int], rng):
    """Another valid answer to one question, different from `old` where the question allows it."""
    kind, low, high = field["kind"], field.get("minimum"), field.get("maximum")
    if kind in ("short_text", "long_text"):
        text = f"another answer {rng.randrange(10**4)}"
        return text[:high] if high else text
    if kind == "number":
        low = low if low is not None else 0
        high = high if high is not None else low + 100
        choices = [n for n in range(low, high + 1) if n != old] or [low]
        return rng.choice(choices)
    if kind == "choice":
        options = field.get("options") or []
        choices = [o for o in options if o != old] or options
        return rng.choice(choices) if choices else old
    if kind == "choices":
        options = field.get("options") or []
        least = low or 0
        most = min(high if high is not None else len(options), len(options))
        for _ in range(5):
            picked = sorted(rng.sample(options, rng.randint(least, most)), key=options.index)
            if picked != old:
                return picked
        return picked
    if kind == "player":
        choices = [p for p in players if p != old] or players
        return rng.choice(choices)
    if kind == "yes_no":
        return not old if old is not None else rng.choice([True, False])
    return old


def _submissions(kind, game: Game, state: dict, seat: int | None, rng) -> str | None:
    """A new version of each other seat's latest submission in the open round, with other valid answers."""
    rnd = game.rounds.filter(status=Round.Status.OPEN).order_by("-number").first()
    if rnd is None:
        return None
    fields = round_fields(state, rnd.number)
    players = sorted(seat_names(game))
    saved = 0
    for number, sub in sorted(latest_submissions(rnd).items()):
        if number == seat:
            continue
        payload = {f["key"]: another_answer(f, sub.payload.get(f["key"]), players, rng) for f in fields}
        payload = kind.clean_submission(game, sub.seat, rnd, payload)
        Submission.objects.create(round=rnd, seat=sub.seat, payload=payload, final=sub.final)
        saved += 1
    return f"{saved} submissions" if saved else None


def _drafts(game: Game, rng) -> str | None:
    """The hosts' unsent resolutions: nobody but the hosts reads them."""
    drafts = list(Resolution.objects.filter(game=game, sent_at__isnull=True))
    for draft in drafts:
        draft.public_text = f"Another draft {rng.randrange(10**6)}"
        draft.save(update_fields=["public_text"])
    return f"{len(drafts)} draft resolutions" if drafts else None


def _inboxes(game: Game, seat: int | None, rng) -> str | None:
    changed = other_inboxes(game, seat, rng, data_numbers=True)
    return f"{changed} inbox messages" if changed else None
