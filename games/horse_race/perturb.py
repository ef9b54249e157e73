"""The leak test's tool: change everything of a running race that one seat (or the spectators) may not see.

What stays is what the seat may see (its own hand, chips, bets, points, reports, submission, trades, inbox,
and which horses stood on each space it spectated) and everything public: who spectated which space, the exits
with their placements and later movement, and after Round 10 the scoreboard. What a seat learned from its
clues is the text written to its inbox then; the new movement values are not made to agree with it.
"""

from __future__ import annotations

from itertools import accumulate

from django.db.models import Q

from games.platform.kit import RulesError
from games.platform.models import Game, Submission
from games.platform.perturbation import other_inboxes
from games.platform.services.ledger import ledger_post_many

from . import decisions
from .models import MovementTable, TradeOffer
from .rules import HORSES, ROUNDS, State, validate_submission
from .rules.ability_inputs import ABILITIES
from .rules.submission import spectating_open
from .rules.track import START_SPACE, finished_by
from .rules.words import plural
from .store import dump, load

REASON = "Hidden-information check (perturbed)"


def hidden_perturb(game: Game, seat_number: int | None, rng) -> list[str]:
    if game.status == Game.Status.FINISHED:
        return []  # the end reveals everything: the table, every seat, every trade and inbox
    state = load(game)
    others = [s for s in range(len(state.players)) if s != seat_number]
    changed = [*_movement(state, seat_number, rng), *_seats(game, state, others, rng)]
    MovementTable.objects.filter(game=game).update(grid=state.movement)
    game.state = dump(state)
    game.seed = rng.getrandbits(62)  # it draws the ending's random picks (and maybe the table): hosts only
    game.save(update_fields=["state", "seed"])
    changed += ["the seed", _submissions(game, state, others, rng)]
    changed += [_offers(game, seat_number, rng), _inboxes(game, seat_number, rng)]
    return [c for c in changed if c]


def _another(value: int, rng) -> int:
    return rng.choice([v for v in (1, 2, 3) if v != value])


def _movement(state: State, seat_number: int | None, rng) -> list[str]:
    """The racing horses' spaces and every value still to be moved. A finished horse's values are public
    (its exit, placement and later values were announced), so are all of them once the race is over."""
    if state.over:
        return []
    length = state.settings.track_length
    done = max(0, state.round - 1)
    racing = [h for h in HORSES if not finished_by(state.movement, h, done, length)]
    # What the seat saw on the spaces it spectated stays true: each horse is on them or off them as before.
    spectated = [] if seat_number is None else state.players[seat_number].spectated[: done + 1]
    seen = dict(enumerate(spectated))
    moved = 0
    for horse in racing:
        row = state.movement[horse]
        path = list(accumulate(row[:done], initial=START_SPACE))
        options = [(r, v) for r in range(done) for v in (1, 2, 3) if v != row[r]]
        rng.shuffle(options)
        for r, v in options:
            # one earlier value changes where the horse stood from that round on, never past the line
            new = [space + v - row[r] if q > r else space for q, space in enumerate(path)]
            if new[-1] <= length and all((path[q] == seen.get(q)) == (new[q] == seen.get(q)) for q in seen):
                row[r], moved = v, moved + 1
                break
        state.movement[horse] = row[:done] + [_another(v, rng) for v in row[done:]]
    changed = [f"{len(racing) * (ROUNDS - done)} movement values (Rounds {done + 1}-{ROUNDS})"]
    return changed + ([f"the spaces of {plural(moved, 'racing horse')}"] if moved else [])


def _seats(game: Game, state: State, others: list[int], rng) -> list[str]:
    """The other seats' hands, chips, limits, purchases, Round 3 reports and, while the race runs, their
    bets and points (the final scoreboard makes those public); their game ledgers follow."""
    users = {seat.number: seat.user for seat in game.seats.select_related("user")}
    postings = []
    for seat in others:
        player = state.players[seat]
        horse, cards, chips = rng.choice(HORSES), rng.randint(1, 2), rng.randint(1, 5)
        player.hand[horse] += cards
        player.chips += chips
        player.bet_bonus += 1
        player.purchases += 1
        postings += [(users[seat], "cards", cards, REASON, horse), (users[seat], "chips", chips, REASON, "")]
        if not state.over:
            player.bets = [{h: c + 1 for h, c in placed.items()} for placed in player.bets]
            points = rng.randint(1, 3)
            player.spectate_points += points
            postings.append((users[seat], "points", points, REASON, ""))
    ledger_post_many(season=game.season, game=game, postings=postings, round_number=state.round)
    reports = [r for r in state.reports if r.seat in others]
    for report in reports:
        unused = [h for h in HORSES if h not in report.horses]
        report.horses = sorted(rng.sample(unused, len(report.horses)))
    words = ["the other seats' hands, chips, bet limits and purchases"]
    if not state.over:
        words.append("their bets and spectating points")
    return [*words, plural(len(reports), "Round 3 report") if reports else None]


def _submissions(game: Game, state: State, others: list[int], rng) -> str | None:
    """A new version of each other seat's latest submission in the open round, with another valid payload."""
    rnd = game.rounds.order_by("-number").first()
    if rnd is None or rnd.status != "open":
        return None
    latest = {}
    for sub in Submission.objects.filter(round=rnd, seat__number__in=others).select_related("seat"):
        latest[sub.seat.number] = sub  # ordered by creation: the last one stands
    saved = 0
    for seat, sub in sorted(latest.items()):
        if rnd.number > ROUNDS:
            payload = _another_decision(state, sub.payload, rng)
        else:
            payload = _another_submission(state, seat, sub.payload, rng)
        if payload is not None:
            Submission.objects.create(round=rnd, seat=sub.seat, payload=payload, final=sub.final)
            saved += 1
    return plural(saved, "submission") if saved else None


def _another_decision(state: State, old: dict, rng) -> dict | None:
    decision = decisions.decision_now(state)
    if decision is None:
        return None
    field = decisions.FIELD[decision["kind"]]
    choices = [c for c in decision["candidates"] if c != old.get(field)]
    return {field: rng.choice(choices)} if choices else None


def _another_submission(state: State, seat: int, old: dict, rng) -> dict | None:
    """Random abilities on one held card and a random space until one passes the saving check and differs."""
    length = state.settings.track_length
    for _ in range(50):
        space = rng.randint(1, length) if spectating_open(state) else None
        try:
            payload = validate_submission(
                state, seat, {"ability": _ability(state, seat, rng), "space": space, "bets": {}}
            )
        except RulesError:
            continue
        if payload != old:
            return payload
    return None


def _ability(state: State, seat: int, rng) -> dict | None:
    held = [h for h in HORSES if state.players[seat].hand[h]]
    if not held or rng.random() < 0.2:
        return None
    kind, horse = rng.choice(("clue", "utility")), rng.choice(held)
    one = {"cards": {horse: 1}, "horses": [horse], "horse": horse, "guesses": {horse: [rng.randint(0, 8)]}}
    return {"kind": kind, **{name: one[takes] for name, takes in ABILITIES[(state.round, kind)][1].items()}}


def _offers(game: Game, seat_number: int | None, rng) -> str | None:
    """Trade offers are the two players' and the hosts': the others get other cards."""
    offers = TradeOffer.objects.filter(game=game)
    if seat_number is not None:
        offers = offers.exclude(Q(offered_by__number=seat_number) | Q(offered_to__number=seat_number))
    offers = list(offers)
    for offer in offers:
        offer.give = rng.choice([h for h in HORSES if h != offer.give])
        offer.want = rng.choice([h for h in HORSES if h != offer.give])
        offer.save(update_fields=["give", "want"])
    return plural(len(offers), "trade offer") if offers else None


def _inboxes(game: Game, seat_number: int | None, rng) -> str | None:
    changed = other_inboxes(game, seat_number, rng)
    return plural(changed, "inbox message") if changed else None
