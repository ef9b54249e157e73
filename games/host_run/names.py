"""Host-run game: names (written in the next commit)."""
