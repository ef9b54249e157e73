"""Every account's email address is in allauth's table (EmailAddress), so no address belongs to two accounts.

allauth decides whether an address is taken (a sign-up, a Discord sign-up) and whom a password reset goes
to from its EmailAddress table; an account made by the admin, by `load_demo` or by `createsuperuser` has its
address only on the user row, where allauth's look-up compares exactly, so `Alice@example.com` there was
free to a Discord sign-up as `alice@example.com`, and a reset for it then mailed only the newcomer (issue 28).

So every save of a user whose address has no row adds one (unverified, and the primary: the user row holds
the primary address), unless another account holds the address already: that is logged and left to a
superuser, and the admin's user form refuses it up front. allauth's own sign-ups file their addresses
themselves (it insists on being first), so a user they save is marked and passed by. Accounts made before
got their rows from a data migration (`file_addresses`, the oldest account first when two shared one).
"""

from __future__ import annotations

import logging

from allauth.account.models import EmailAddress

log = logging.getLogger(__name__)

# Set on a user that allauth's sign-up saves: it files the addresses itself, and refuses to find one there.
FILED_BY_ALLAUTH = "_genius_addresses_by_allauth"


def address_holder(email: str, but=None):
    """The account other than `but` that holds `email` (any case), if one does."""
    from django.contrib.auth import get_user_model

    if not email:
        return None
    others = get_user_model().objects.exclude(pk=getattr(but, "pk", None))
    row = EmailAddress.objects.filter(email__iexact=email).exclude(user_id=getattr(but, "pk", None)).first()
    return row.user if row else others.filter(email__iexact=email).first()


def file_address(user) -> None:
    """The user row's address gets its EmailAddress row, as the primary, if no other account holds it."""
    email = (user.email or "").strip().lower()
    if not email or EmailAddress.objects.filter(user=user, email__iexact=email).exists():
        return
    if EmailAddress.objects.filter(email__iexact=email).exclude(user=user).exists():
        log.warning("User %s has the address of another account; it stays off allauth's table.", user.pk)
        return
    EmailAddress.objects.filter(user=user, primary=True).update(primary=False)
    EmailAddress.objects.create(user=user, email=email, primary=True, verified=False)


def _user_saved(sender, instance, created, update_fields=None, **kwargs) -> None:
    if getattr(instance, FILED_BY_ALLAUTH, False):
        return
    if update_fields is not None and "email" not in update_fields:
        return  # a login's last_login, a new password: the address did not change
    file_address(instance)


def file_addresses(user_model, address_model) -> list[int]:
    """For the data migration: a row for each account's address that has none; the ids of accounts whose
    address another (older) account holds, left for a superuser to sort out."""
    taken = {e.lower() for e in address_model.objects.values_list("email", flat=True)}
    has_primary = set(address_model.objects.filter(primary=True).values_list("user_id", flat=True))
    shared = []
    for user in user_model.objects.exclude(email="").order_by("pk"):
        email = user.email.strip().lower()
        if address_model.objects.filter(user_id=user.pk, email__iexact=email).exists():
            continue
        if email in taken:
            shared.append(user.pk)
            continue
        address_model.objects.create(
            user_id=user.pk, email=email, primary=user.pk not in has_primary, verified=False
        )
        taken.add(email)
    return shared


def connect() -> None:
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_save

    post_save.connect(_user_saved, sender=get_user_model(), dispatch_uid="genius-file-address")
