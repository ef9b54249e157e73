"""The host-run game: a Main Match or Death Match whose rules, round forms and results the hosts write."""
