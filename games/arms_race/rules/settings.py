"""The rules' Settings: the numbers of the game and the choices a host makes, each reading of the rules
one way is in docs/rulings/arms_race.md."""

from __future__ import annotations

from dataclasses import dataclass

PLAYERS = 7
ROUNDS = 9
HAND_SIZE = 9
WOUNDS_TO_LOSE = 3  # the amendment: "Instead of being four wounds = out, it will be only three."
WILD_CARD_PRICE = 3  # garnets; the caller debits the season ledger, the engine records the card


@dataclass(frozen=True)
class Settings:
    """The game's settings; each field that reads the rules one way is in docs/rulings/arms_race.md."""

    players: int = PLAYERS
    rounds: int = ROUNDS
    hand_size: int = HAND_SIZE
    wounds_to_lose: int = WOUNDS_TO_LOSE
    wild_cards_offered: bool = True
    wild_card_price: int = WILD_CARD_PRICE
    wild_cards_per_break: int = 1
    wild_before_first_round: bool = False
    # "play": the weapon is named when the wild card is played; "purchase": when it is bought.
    wild_declared_at: str = "play"
    announce_wild_purchases: bool = False
    # Who "pointed it towards the sole loser" when the loser is the pointer whose claim was called right:
    # "challenger" (the player whose call turned it back) or "previous" (who had pointed it at the loser).
    caught_pointer_winner: str = "challenger"
    # After nine rounds, a tie for most wounds: "by_type_then_random" or "random".
    final_tiebreak: str = "by_type_then_random"
    # What a responder whose clock ran out says when challenging.
    timeout_call: str = "truth"
