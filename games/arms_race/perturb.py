"""The leak proof's hook: deal again all of a running game that one seat (or the spectators) may not see."""

from __future__ import annotations

import random

from games.platform.models import Event, Game

from .hidden import hidden_data
from .models import Deal
from .rules.attack import seen_reveal
from .rules.flow import hand_reveal
from .rules.perturb import dealt_hands, flight_hidden, twin
from .store import dump, load


def hidden_perturb(game: Game, seat_number: int | None, rng) -> list[str]:
    """Deal again all that `seat_number` (None: spectators) may not see, as the game might have gone."""
    state = load(game)
    others = [s for s in range(state.players) if s != seat_number]
    deal = hidden_data(game)["deal"]
    # The game's seed draws the rules' seed at the start: a new pair, as a fresh game would have.
    game.seed = random.Random(f"{rng.random()}").getrandbits(62)
    new = twin(state, seat_number, rng, seed=random.Random(game.seed).getrandbits(64))
    game.state = dump(new)
    game.save(update_fields=["seed", "state"])
    # The deal of the others is what they hold now plus what they played; the seat keeps its own line.
    dealt = dealt_hands(new)
    hands = [deal[s] if s == seat_number else [w.value for w in dealt[s]] for s in range(state.players)]
    Deal.objects.update_or_create(game=game, defaults={"hands": hands})
    # Their private messages tell the new story: the hand they were dealt, the weapon they looked at.
    reveals = Event.objects.filter(game=game, kind=Event.Kind.REVEAL).select_related("seat")
    rewritten = {}
    for event in reveals.filter(data__event="hand").exclude(seat__number=seat_number):
        rewritten[event] = hand_reveal(event.seat.number, dealt[event.seat.number])
    if flight_hidden(state, seat_number):
        passers = len(new.flight.seen) - 1
        for event in reveals.filter(data__event="seen").order_by("-id")[:passers]:
            rewritten[event] = seen_reveal(new, event.seat.number)
    # A purchase's message and its ledger rows stay: a changed number of purchases would need rows in
    # the past (and the garnets they cost are public in the season's standings anyway).
    for event, reveal in rewritten.items():
        event.text, event.data = reveal.text, reveal.data
    Event.objects.bulk_update(list(rewritten), ["text", "data"])
    changed = [
        f"the hands of {', '.join(state.names[s] for s in others)}, their deal and hand messages",
        "the undealt cards",
        "the seed",
    ]
    if flight_hidden(state, seat_number):
        changed.append(f"the weapon in flight and {passers} passers' messages about it")
    if state.settings.wild_cards_offered:
        changed.append("the others' wild cards")
    return changed
