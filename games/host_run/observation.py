"""Host-run game: observation (written in the next commit)."""
