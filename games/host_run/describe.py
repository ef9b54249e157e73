"""Host-run game: describe (written in the next commit)."""
