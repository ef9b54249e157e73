"""How the site reaches a player: one module per channel (email, Discord, push) and the dispatch that picks them."""
