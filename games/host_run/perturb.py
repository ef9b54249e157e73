"""Host-run game: perturb (written in the next commit)."""
