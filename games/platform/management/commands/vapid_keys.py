"""Print a new VAPID key pair for Web Push, as lines to put in the environment. It stores nothing: the keys
are the operator's to keep. Changing them later makes every device subscribe again (the browsers'
subscriptions are bound to the public key), so make them once per site."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.platform.reach.vapid import new_pair


class Command(BaseCommand):
    help = "Print a new VAPID key pair (Web Push) to put in the environment."

    def handle(self, *args, **options):
        public, private = new_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        self.stdout.write("# An address the push services may write to about this site's pushes:")
        self.stdout.write("VAPID_SUBJECT=mailto:you@example.org")
