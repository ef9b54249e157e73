"""The admin's user forms, with the rules every other way into an account keeps: an email address belongs to
one account (addresses.py), and a new username is one nobody could mistake for another person's name
(lookalikes.py). A username or address kept from before passes while it is left unchanged."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError

from ..addresses import address_holder
from ..lookalikes import name_problem, normalized
from ..services.profiles import names_of_others


def _clean_username(form) -> str:
    username = form.cleaned_data.get("username", "")
    if username and username != form.instance.username:
        problem = name_problem(username, names_of_others(form.instance), what="A username")
        if problem:
            raise ValidationError(problem)
        username = normalized(username)
    return username


def _clean_email(form) -> str:
    email = form.cleaned_data.get("email", "")
    if email and email != form.instance.email and address_holder(email, but=form.instance):
        raise ValidationError("Another account has this address: an address belongs to one account only.")
    return email


class AccountCreationForm(AdminUserCreationForm):
    def clean_username(self):
        super().clean_username()
        return _clean_username(self)


class AccountChangeForm(UserChangeForm):
    def clean_username(self):
        return _clean_username(self)

    def clean_email(self):
        return _clean_email(self)


class AccountAdmin(UserAdmin):
    form = AccountChangeForm
    add_form = AccountCreationForm


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), AccountAdmin)
