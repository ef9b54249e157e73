"""Host-run game: store (written in the next commit)."""
