"""A password change or reset lists the Discord accounts that can log in to the account, and removes the ones
the person ticks (issue 28, O1).

Someone who held a player's session for a moment could connect a Discord account of their own; the player's
new password ended that session but left the Discord login, through which the intruder came back. Connecting
and removing a login now asks for the password (allauth's reauthentication) and emails the player; and the
moment a player changes or resets their password, after a scare, is the one to see every other way in.
"""

from __future__ import annotations

from allauth.account.forms import ChangePasswordForm as AllauthChangePasswordForm
from allauth.account.forms import ResetPasswordKeyForm as AllauthResetPasswordKeyForm
from allauth.core import context as allauth_context
from allauth.socialaccount.adapter import get_adapter as get_social_adapter
from allauth.socialaccount.models import SocialAccount
from allauth.socialaccount.signals import social_account_removed
from django import forms
from django.contrib import messages
from django.http import Http404


def login_name(account) -> str:
    """The login as the person knows it: "Discord: nelly"."""
    try:
        return f"{account.get_provider().name}: {account.get_provider_account().to_str()}"
    except Http404:  # its provider is no longer set up here (DISCORD_CLIENT_ID unset): still listed
        return f"{account.provider.title()}: {account.uid}"


class LoginsField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, account) -> str:
        return login_name(account)


class OtherLogins:
    """Lists the account's other logins (Discord) in a field of their own, and removes the ticked ones as the
    password is saved."""

    def offer_removal(self) -> None:
        logins = SocialAccount.objects.filter(user=self.user) if self.user else SocialAccount.objects.none()
        if logins.exists():
            self.fields["remove_logins"] = LoginsField(
                queryset=logins,
                required=False,
                widget=forms.CheckboxSelectMultiple,
                label="Other ways into this account",
                help_text=(
                    "Each of these logs in to your account without the password. Tick any you did not "
                    "connect yourself (or no longer use): it is removed as the password changes."
                ),
            )

    def remove_chosen(self) -> None:
        request = allauth_context.request
        for account in self.cleaned_data.get("remove_logins") or []:
            name = login_name(account)
            account.delete()
            social_account_removed.send(sender=SocialAccount, request=request, socialaccount=account)
            get_social_adapter().send_notification_mail(
                "socialaccount/email/account_disconnected",
                self.user,
                context={"account": account, "provider": name.partition(":")[0], "login": name},
            )
            if request is not None:
                messages.info(request, f"{name} can no longer log in to your account.")


class ChangePasswordForm(OtherLogins, AllauthChangePasswordForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.offer_removal()

    def save(self) -> None:
        super().save()
        self.remove_chosen()


class ResetPasswordKeyForm(OtherLogins, AllauthResetPasswordKeyForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.offer_removal()

    def save(self) -> None:
        super().save()
        self.remove_chosen()
