"""The hosts' admin: each host sees and runs only the games they host; every action goes through a service.

A module for each model's admin and each console, as the services have; this package only imports them, so
that their registrations run when Django's admin looks for `admin` modules:
- `scoping.py`: who sees what (`HostScoped`, `ReadOnlyHostScoped`), the base of every admin here and of the
  game apps' admins; `hidden.py`: the base of a game's hidden host data admin (`HiddenDataAdmin`);
- `games.py`: the game's admin, its form, seats and rounds, and the actions on the selected games;
  `console.py`: the host's console on a game's page; `settings_form.py`: a game's settings as fields;
- `actions.py`: an admin action's answer, a message for each selected row (`run_service`);
- `seasons.py`: seasons and their players, `season_form.py` the season's form (its settings as fields, the
  grant to several players), `season_console.py` the season's console above it, `cohosts.py` its hosts as
  the form saves them; `ledger.py`: balances and
  entries; `picks.py`: the Death Match picks; `invitations.py`: the invitation links and their forms;
- `records.py`: what the games wrote (submissions, events, the audit log), `told.py` reading stored texts
  for it and for the ledger; `chats.py`: the chat messages;
- `webhooks.py`: where announcements are posted; `outbox.py`: the owed tasks, for superusers;
- `accounts.py`: the user forms.
"""

from . import (  # noqa: F401  (each module registers its admins)
    accounts,
    chats,
    games,
    invitations,
    ledger,
    outbox,
    picks,
    records,
    seasons,
    webhooks,
)
