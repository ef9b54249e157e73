"""The Cards on the Table app: registers the game type with the platform."""

from django.apps import AppConfig


class CardsTableConfig(AppConfig):
    name = "games.cards_table"
    label = "cards_table"
    verbose_name = "Cards on the Table"

    def ready(self):
        from games.platform import registry

        from .game import CardsTable

        registry.register(CardsTable())
