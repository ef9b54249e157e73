"""Host-run game: rules/__init__ (written in the next commit)."""
