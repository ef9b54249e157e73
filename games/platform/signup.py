"""Accounts through django-allauth: who may sign up, where a pending invitation is honoured, Discord's name.

Sign-up is closed unless GENIUS_OPEN_SIGNUP is set or the visitor holds a usable invitation (opened
`/join/<token>/` in this session). Whoever logs in or signs up with one pending joins its season as a
player in the same step. A Discord identity gives a new account its first display name. allauth's own
rate limits count the client's address as the proxy saw it (genius/proxy.py), like django-axes.

What allauth leaves open is closed here (issue 28): a new username keeps the look-alike rules
(lookalikes.py); its emails link under GENIUS_SITE_URL, whatever Host the request named; and a sign-up (the
form, or Discord's) that gives an address another account holds is answered as a free one is, the account
made without it and the address's owner told, so the form tells nobody whose address it is.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.account.signals import user_signed_up
from allauth.core import context as allauth_context
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from allauth.socialaccount.forms import SignupForm as AllauthSocialSignupForm
from allauth.socialaccount.models import SocialApp
from allauth.socialaccount.signals import social_account_added
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.contrib.sites.shortcuts import get_current_site
from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.functional import SimpleLazyObject

from genius.proxy import client_ip

from .addresses import FILED_BY_ALLAUTH, address_holder
from .errors import StateChanged
from .lookalikes import name_problem as lookalike_problem
from .lookalikes import normalized
from .models import Invitation
from .password_forms import login_name
from .people import ensure_profile
from .services.invitations import invitation_accept, invitation_find, invitation_standing
from .services.profiles import name_problem, names_of_others, profile_save

PENDING = "genius_invitation"
SITE_NAME = "genius"


def pending_invitation(request) -> Invitation | None:
    """The invitation this visitor opened, if it can still be used."""
    session = getattr(request, "session", None)
    token = session.get(PENDING) if session is not None else None
    invitation = invitation_find(token) if token else None
    return invitation if invitation is not None and invitation_standing(invitation).usable else None


# The links allauth puts in its emails' context: a reset, an address to confirm, the sign-up page.
EMAIL_LINKS = ("password_reset_url", "activate_url", "signup_url")


def on_site(url: str) -> str:
    """The same page under GENIUS_SITE_URL, whatever host `url` was built with."""
    parts = urlsplit(url)
    return settings.GENIUS_SITE_URL + urlunsplit(("", "", parts.path, parts.query, parts.fragment))


def discord_configured() -> bool:
    return bool(settings.SOCIALACCOUNT_PROVIDERS.get("discord", {}).get("APPS"))


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request) -> bool:
        return settings.GENIUS_OPEN_SIGNUP or pending_invitation(request) is not None

    def clean_username(self, username: str, shallow: bool = False) -> str:
        # Kept in NFKC form, and never one that hides characters or could pass for another person's name
        # (lookalikes.py): checked on every path to a new username, Discord's generated ones included.
        problem = lookalike_problem(username, names_of_others(None), what="A username")
        if problem:
            raise ValidationError(problem)
        return super().clean_username(normalized(username), shallow=shallow)

    def save_user(self, request, user, form, commit=True):
        setattr(user, FILED_BY_ALLAUTH, True)  # it files the sign-up's address itself (addresses.py)
        return super().save_user(request, user, form, commit=commit)

    def get_client_ip(self, request) -> str:
        return client_ip(request) or super().get_client_ip(request)

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        # Its emails greet from the site ("Hello from genius!") and link to it under GENIUS_SITE_URL, never
        # under the Host the request named: allauth builds its links (a reset, a confirmation, the sign-up)
        # from the request, and its site is the request's host without the sites framework.
        site = get_current_site(allauth_context.request)
        site.name, site.domain = SITE_NAME, urlsplit(settings.GENIUS_SITE_URL).netloc
        links = {key: on_site(context[key]) for key in EMAIL_LINKS if context.get(key)}
        site_url = settings.GENIUS_SITE_URL  # the site's own email templates link as {{ site_url }}{% url %}
        super().send_mail(
            template_prefix, email, {**context, "current_site": site, "site_url": site_url, **links}
        )


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def is_open_for_signup(self, request, sociallogin) -> bool:
        return AccountAdapter().is_open_for_signup(request)

    def send_notification_mail(self, template_prefix, user, context=None, email=None):
        # A login connected or removed is named in the email ("Discord: nelly"), so the player knows it.
        context = dict(context or {})
        if "account" in context:
            context.setdefault("login", login_name(context["account"]))
        return super().send_notification_mail(template_prefix, user, context=context, email=email)

    def pre_social_login(self, request, sociallogin) -> None:
        # A newcomer from Discord whose address another account holds signs up as any newcomer does, without
        # the address: allauth would show a form saying the address is taken (issue 28, O4).
        if sociallogin.is_existing or sociallogin.state.get("process") == "connect":
            return
        taken = {}
        for address in sociallogin.email_addresses:
            if address_holder(address.email):
                taken[address.email.lower()] = address.verified
        user_address = (sociallogin.user.email or "").lower()
        if user_address and address_holder(user_address):
            taken.setdefault(user_address, False)
        if taken:
            sociallogin.email_addresses = [
                a for a in sociallogin.email_addresses if a.email.lower() not in taken
            ]
            if user_address in taken:
                sociallogin.user.email = ""
            sociallogin.state[TAKEN] = taken

    def save_user(self, request, sociallogin, form=None):
        setattr(sociallogin.user, FILED_BY_ALLAUTH, True)  # it files Discord's addresses itself
        user = super().save_user(request, sociallogin, form=form)
        for email, verified in sociallogin.state.pop(TAKEN, {}).items():
            answer_as_if_free(request, email, confirmation_sent=not verified)
        return user

    def get_app(self, request, provider, client_id=None):
        # Without DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET its routes are simply not there (404).
        try:
            return super().get_app(request, provider, client_id=client_id)
        except SocialApp.DoesNotExist:
            raise Http404(f"Logging in with {provider} is not set up on this site.") from None


TAKEN = "genius_taken_addresses"


def answer_as_if_free(request, email: str, *, confirmation_sent: bool = True) -> None:
    """A sign-up gave an address another account holds: the newcomer's account is made without it, and they
    read what a free address gets them ("Confirmation email sent to ..."), so the form tells nobody whose
    address it is. The address's owner is told someone tried (allauth's "account already exists" email)."""
    adapter = AccountAdapter(request)
    adapter.send_account_already_exists_mail(email)
    if confirmation_sent:
        adapter.add_message(
            request,
            messages.INFO,
            "account/messages/email_confirmation_sent.txt",
            {"email": email, "login": False, "signup": True},
        )


class SignupMixin:
    """A sign-up form that answers the same for a taken address and a free one (issue 28, O4): allauth's own
    says "A user is already registered with this email address" unless every sign-up must confirm its address
    before logging in, which this site does not ask (an address is optional)."""

    def validate_unique_email(self, value):
        if address_holder(value):
            self.taken_address = value
            return value
        return super().validate_unique_email(value)

    def save(self, request):
        taken = getattr(self, "taken_address", None)
        if taken:
            self.cleaned_data["email"] = ""
        user = super().save(request)
        if taken:
            answer_as_if_free(request, taken)
        return user


# Why a sign-up asks for an address, though it may be left empty: with no way to reach a player, no reminder
# finds them, and the host is told "no way to reach them" (issue 30).
def email_help() -> str:
    others = "sign up with Discord or allow" if discord_configured() else "allow"
    return (
        f"So the site can tell you a round opened or closes soon. Leave it empty only if you {others} "
        "notifications in this browser afterwards: with no way to reach you, nobody can remind you."
    )


class SignupForm(SignupMixin, AllauthSignupForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "email" in self.fields:
            self.fields["email"].help_text = email_help()


class SocialSignupForm(SignupMixin, AllauthSocialSignupForm):
    pass


class LoginForm(AllauthLoginForm):
    """allauth's login form, which also takes the `username` field the site's old form posted."""

    def __init__(self, *args, **kwargs):
        data = kwargs.get("data")
        if data is not None and "login" not in data and "username" in data:
            data = data.copy()
            data["login"] = data["username"]
            kwargs["data"] = data
        super().__init__(*args, **kwargs)


def context(request) -> dict:
    """For every page: whether the sign-up link and the Discord button show; the invitation this visitor
    opened (read only by a page that shows it: the sign-up form)."""
    return {
        "signup_open": settings.GENIUS_OPEN_SIGNUP,
        "discord_login": discord_configured(),
        "invited_to": SimpleLazyObject(lambda: pending_invitation(request)),
    }


def join_pending_season(sender, request, user, **kwargs) -> None:
    """A login (a sign-up logs in too) with an invitation pending: the user joins its season now."""
    if request is None or not hasattr(request, "session") or PENDING not in request.session:
        return
    token = request.session.pop(PENDING)
    try:
        member = invitation_accept(token=token, user=user)
    except StateChanged as exc:
        messages.error(request, exc.message)
        return
    messages.success(request, f"You are a player of {member.season.name}.")


def discord_name(data: dict) -> str:
    return normalized(data.get("global_name") or data.get("username") or "")[:40]


def name_from_discord(request, user, sociallogin) -> None:
    """A display name is taken from Discord while the user has none (and nobody else goes by it)."""
    if sociallogin is None or sociallogin.account.provider != "discord":
        return
    name = discord_name(sociallogin.account.extra_data or {})
    profile = ensure_profile(user)
    if name and not profile.display_name and name_problem(user, name) is None:
        profile_save(user=user, display_name=name)


def on_signed_up(sender, request, user, sociallogin=None, **kwargs) -> None:
    ensure_profile(user)
    name_from_discord(request, user, sociallogin)


def on_social_added(sender, request, sociallogin, **kwargs) -> None:
    name_from_discord(request, sociallogin.user, sociallogin)


def connect() -> None:
    user_logged_in.connect(join_pending_season, dispatch_uid="genius-join-pending-season")
    user_signed_up.connect(on_signed_up, dispatch_uid="genius-signed-up")
    social_account_added.connect(on_social_added, dispatch_uid="genius-social-added")
