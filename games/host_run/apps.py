"""The host-run game app: registers its two game types (a Main Match and a Death Match) with the platform."""

from django.apps import AppConfig


class HostRunConfig(AppConfig):
    name = "games.host_run"
    label = "host_run"
    verbose_name = "Host-run game"

    def ready(self):
        from games.platform import registry

        from .game import HostRun

        registry.register(HostRun("host_run", "Host-run Main Match", registry.MAIN_MATCH))
        # A Death Match is one player against another (docs/rulings/host_run.md).
        death = HostRun("host_run_death", "Host-run Death Match", registry.DEATH_MATCH, 2, 2)
        registry.register(death)
