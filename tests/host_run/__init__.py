"""The host-run game type."""
