"""Host-run game: settings (written in the next commit)."""
