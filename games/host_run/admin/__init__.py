"""The hosts' admin of a host-run game: its design (set-up) and each round's resolution."""

from . import design, resolution  # noqa: F401
