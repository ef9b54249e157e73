"""The first-run page: a site with no account at all asks for its first host, so a new community starts in
the browser, with no shell step.

While there is no user, a visitor to the home page or the admin is sent to /first-run/, which asks for a
username, an address and a password (the site's rules for each, every error next to its field, nothing typed
lost), makes that account a host (staff, in Hosts), logs them in and opens the admin's "Add season" page. The
moment any account exists the page answers 404, and two first runs sent at once make one host between them
(services/host_role.py `first_host_create`).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.password_validation import password_validators_help_texts
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from .lookalikes import normalized
from .services.host_role import SiteHasUsers, first_host_create, site_is_empty


class FirstHostForm(UserCreationForm):
    email = forms.EmailField(
        label="Email address", help_text="Where a forgotten password's reset goes.", required=True
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(autocomplete="username", autofocus=True)
        self.fields["email"].widget.attrs.update(autocomplete="email")
        for name in ("password1", "password2"):
            # Typed passwords come back with the form when only another field was wrong.
            self.fields[name].widget = forms.PasswordInput(
                render_value=True, attrs={"autocomplete": "new-password"}
            )
        self.fields["password1"].help_text = " ".join(password_validators_help_texts())

    def clean_username(self):
        return normalized(super().clean_username())

    def full_clean(self):
        super().full_clean()
        if self.is_bound and {"password1", "password2"} & set(self.errors):
            for name in ("password1", "password2"):
                self.fields[name].widget.render_value = False  # a refused password is typed again


@require_http_methods(["GET", "POST"])
def first_run(request):
    if not site_is_empty():
        raise Http404("The site has its first host already.")
    form = FirstHostForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            host = first_host_create(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except SiteHasUsers:
            raise Http404("The site has its first host already.") from None
        login(request, host, backend="django.contrib.auth.backends.ModelBackend")
        welcome = f"Welcome, {host.username}: you are this site's first host. Name your season."
        messages.success(request, welcome)
        return redirect("admin:platform_season_add")
    return render(request, "platform/first_run.html", {"form": form})


class FirstRunMiddleware:
    """Sends a visitor of the home page or the admin to the first-run page while the site has no account (one
    query, for those two places and a visitor not logged in only)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            request.method in ("GET", "HEAD")
            and (request.path == "/" or request.path.startswith("/admin/"))  # the admin's login page too
            and not request.user.is_authenticated
            and site_is_empty()
        ):
            return redirect(reverse("first-run"))
        return self.get_response(request)
