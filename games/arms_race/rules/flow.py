"""The course of the game: the deal, each round's random order, the turns, and the breaks between rounds."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from games.platform.kit import Announce, Reveal, RulesError

from . import chance
from .ending import end_after_nine_rounds, who
from .settings import Settings
from .state import Phase, State
from .weapons import COPIES, DECK, WEAPONS, checked_deal, shuffled_deal


def check_settings(settings: Settings) -> None:
    if not 2 <= settings.players or settings.players * settings.hand_size > len(DECK):
        raise RulesError(
            f"Arms Race needs at least 2 players and at most {len(DECK)} cards dealt.", field="players"
        )
    if not 1 <= settings.rounds <= settings.hand_size:
        raise RulesError("Each round uses a card from every hand: no more rounds than cards.", field="rounds")
    if not 1 <= settings.wounds_to_lose <= COPIES:
        raise RulesError("The wounds that lose must be between 1 and 8.", field="wounds_to_lose")
    choices = {
        "wild_declared_at": ("play", "purchase"),
        "caught_pointer_winner": ("challenger", "previous"),
        "final_tiebreak": ("by_type_then_random", "random"),
        "timeout_call": ("truth", "lie"),
    }
    for name, allowed in choices.items():
        if getattr(settings, name) not in allowed:
            raise RulesError(f"{name} must be one of {', '.join(allowed)}.", field=name)


def hand_words(hand: Sequence) -> str:
    return ", ".join(f"{hand.count(w)} {w.title}" for w in WEAPONS if w in hand) or "no cards"


def hand_reveal(seat: int, hand: Sequence) -> Reveal:
    """The private message that tells a player the hand they were dealt."""
    return Reveal(
        seat,
        f"Your hand for the whole game: {hand_words(hand)}.",
        {"event": "hand", "hand": [w.value for w in hand]},
    )


def new_game(
    rng: random.Random,
    settings: Settings | None = None,
    deal: Sequence[Sequence[str]] | None = None,
    names: Sequence[str] | None = None,
) -> tuple[State, list]:
    """Shuffle and deal (or take the host's deal), tell each player their hand, and start Round 1."""
    settings = settings or Settings()
    check_settings(settings)
    n = settings.players
    names = tuple(names) if names is not None else tuple(f"Player {seat + 1}" for seat in range(n))
    if len(names) != n:
        raise RulesError(f"Give one name per player ({n}).", field="names")
    seed = rng.getrandbits(64)
    if deal is None:
        hands, undealt = shuffled_deal(chance.for_deal(seed), n, settings.hand_size)
    else:
        hands, undealt = checked_deal(deal, n, settings.hand_size)
    state = State(
        settings=settings,
        seed=seed,
        names=names,
        hands=hands,
        undealt=undealt,
        wilds=tuple(() for _ in range(n)),
        wounds=tuple(tuple(0 for _ in WEAPONS) for _ in range(n)),
        round=0,
        order=(),
        turn=0,
        phase=Phase.ATTACK,
    )
    events: list = [
        Announce(
            f"Arms Race begins: {settings.hand_size} cards dealt to each of {n} players, "
            f"{settings.rounds} rounds; {settings.wounds_to_lose} wounds of one type lose.",
            {"event": "dealt", "players": n, "hand_size": settings.hand_size},
        )
    ]
    events += [hand_reveal(seat, hand) for seat, hand in enumerate(hands)]
    if settings.wild_cards_offered and settings.wild_before_first_round:
        state, more = open_wild_cards(state)
    else:
        state, more = start_round(state)
    return state, events + more


def start_round(state: State) -> tuple[State, list]:
    """A new round: a fresh random order in which every player presents one weapon."""
    number = state.round + 1
    order = chance.round_order(state.seed, number, state.players)
    state = replace(
        state,
        round=number,
        order=order,
        turn=0,
        phase=Phase.ATTACK,
        flight=None,
        wild_decided=(),
        wild_bought=(),
        timed_out=(),
    )
    text = f"Round {number} begins. Order: {', '.join(who(state, s) for s in order)}."
    return state, [Announce(text, {"event": "round", "round": number, "order": list(order)})]


def open_wild_cards(state: State) -> tuple[State, list]:
    """Between rounds a wild card is on offer; every player buys or declines before the next round."""
    state = replace(state, phase=Phase.WILD_CARDS, flight=None, wild_decided=(), wild_bought=(), timed_out=())
    text = (
        f"Before Round {state.round + 1}: a wild card is on offer for {state.settings.wild_card_price} "
        "garnets. Buy one or decline."
    )
    return state, [Announce(text, {"event": "wild_cards_offered", "round": state.round + 1})]


def finish_turn(state: State) -> tuple[State, list]:
    """The attack is over: the next player in this round's order attacks, or the round ends."""
    state = replace(state, flight=None, timed_out=())
    if state.turn + 1 < len(state.order):
        return replace(state, turn=state.turn + 1, phase=Phase.ATTACK), []
    if state.round >= state.settings.rounds:
        return end_after_nine_rounds(state)
    if state.settings.wild_cards_offered:
        return open_wild_cards(state)
    return start_round(state)
