"""Who is asking: the session's user and an API token's, each read in one precompiled statement.

The same checks as Django's ModelBackend and DRF's TokenAuthentication (an inactive user is refused on
every request, at once); only the SQL is built once per process instead of per request (statements.py).
"""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication as DrfTokenAuthentication

from . import statements


class ModelBackend(DjangoModelBackend):
    def get_user(self, user_id):
        user = statements.user_by_id(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


class TokenAuthentication(DrfTokenAuthentication):
    def authenticate_credentials(self, key):
        token = statements.token_with_user(key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
