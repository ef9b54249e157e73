"""Make a host: a new account (its password asked for, or read from an environment variable for scripts),
or an existing one promoted; either way staff, so the admin lets them in, and in the Hosts group, so they may
make seasons. Run again, it changes nothing and says so."""

from __future__ import annotations

import getpass
import os

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.platform.addresses import address_holder
from games.platform.lookalikes import name_problem
from games.platform.services.host_role import HOSTS, make_host
from games.platform.services.profiles import names_of_others


class Command(BaseCommand):
    help = "Make a host (staff, in the Hosts group): a new account, or an existing one promoted."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--email", default="", help="The new account's address (password resets).")
        parser.add_argument(
            "--password-from-env",
            metavar="VAR",
            help="Read a new account's password from this environment variable instead of asking.",
        )

    def handle(self, *args, username, email, password_from_env, **options):
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        if user is None:
            user = self._create(User, username, email, password_from_env)
            made = "Made the account"
        else:
            if email and email.lower() != (user.email or "").lower():
                self.stderr.write(f"{username} exists: their address stays {user.email or '(none)'}.")
            made = "Found the account"
        changed = make_host(user)
        if changed:
            done = ", ".join(changed)
            self.stdout.write(f"{made} {username}: {done}. They may now make seasons at /admin/.")
        else:
            self.stdout.write(f"{username} is a host already (staff, in {HOSTS}): nothing changed.")

    @transaction.atomic
    def _create(self, User, username, email, variable):
        candidate = User(username=username, email=email)
        try:
            candidate.full_clean(exclude=["password"])
        except ValidationError as exc:
            raise CommandError(" ".join(m for ms in exc.message_dict.values() for m in ms)) from exc
        problem = name_problem(username, names_of_others(candidate), what="A username")
        if problem:
            raise CommandError(problem)
        if email and address_holder(email):
            raise CommandError(f"Another account has the address {email}: an address belongs to one account.")
        password = self._password(variable, candidate)
        return User.objects.create_user(username=username, email=email, password=password)

    def _password(self, variable, candidate) -> str:
        if variable:
            password = os.environ.get(variable, "")
            if not password:
                raise CommandError(f"The environment variable {variable} is empty or unset: no password.")
        else:
            password = getpass.getpass(f"Password for {candidate.username}: ")
            if password != getpass.getpass("The same password again: "):
                raise CommandError("The two passwords differ: nothing was made.")
        try:
            validate_password(password, candidate)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        return password
