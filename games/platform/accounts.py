"""Accounts: a new password revokes the user's API tokens.

Django already logs out every other session when a password changes (the session keeps a hash of it);
DRF's tokens know nothing of the password, so a token taken by someone who knew the old one would outlive
the change. `set_password` marks the user (`_password`) until the save that stores the new hash: the
token goes at that save, whoever changed it (the admin, a form, the shell). A rehash on login (the same
password under a stronger hasher) saves without that mark and keeps the token.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save
from rest_framework.authtoken.models import Token


def revoke_tokens_on_new_password(sender, instance, created, **kwargs):
    if not created and getattr(instance, "_password", None) is not None:
        Token.objects.filter(user=instance).delete()


def connect() -> None:
    post_save.connect(
        revoke_tokens_on_new_password, sender=get_user_model(), dispatch_uid="genius-revoke-tokens"
    )
