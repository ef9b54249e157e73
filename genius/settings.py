"""Settings, read from the environment so one codebase runs the demo, the tests and production.

With nothing set it runs on embedded defaults: SQLite and a Celery broker on the file system, so `make run`
needs no server. DATABASE_URL and CELERY_BROKER_URL (or REDIS_URL) switch to Postgres and Redis.
GENIUS_PRODUCTION=1 turns on the secure cookies, HSTS and the rest that `check --deploy` asks for.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("GENIUS_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_flag(name: str, default: bool = False) -> bool:
    return os.environ.get(name, "1" if default else "0").lower() in {"1", "true", "yes", "on"}


PRODUCTION = env_flag("GENIUS_PRODUCTION")
DEBUG = env_flag("DJANGO_DEBUG", default=not PRODUCTION)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
DEV_SECRET_KEY = "dev-only-insecure-key-" + "x" * 40
# Keys that were ever written down somewhere public: whoever knows one can forge sessions and resets.
KNOWN_SECRET_KEYS = {DEV_SECRET_KEY, "change-me-to-a-long-random-string-before-production"}


def secret_key_problem(key: str) -> str | None:
    """Why production refuses this key (Django's own deploy check asks for 50 characters, 5 distinct)."""
    if not key:
        return "Set DJANGO_SECRET_KEY: production refuses to run without one."
    if key in KNOWN_SECRET_KEYS or key.startswith(("django-insecure-", "dev-only-", "change-me")):
        return "DJANGO_SECRET_KEY is a published default: set a long random one of your own."
    if len(key) < 50 or len(set(key)) < 5:
        return "DJANGO_SECRET_KEY is too short: use at least 50 random characters."
    return None


if PRODUCTION and secret_key_problem(SECRET_KEY):
    raise RuntimeError(secret_key_problem(SECRET_KEY))
SECRET_KEY = SECRET_KEY or DEV_SECRET_KEY
# The names the site answers to. Production names its own or refuses to start: a default would let a request
# with any of these Host headers through, and whatever a page builds from the request would name that host.
_hosts = os.environ.get("DJANGO_ALLOWED_HOSTS", "")
if PRODUCTION and not _hosts.strip(" ,"):
    raise RuntimeError(
        "Set DJANGO_ALLOWED_HOSTS to the names the site is reached by (genius.example.org): production "
        "refuses to run without them."
    )
_hosts = _hosts or "localhost,127.0.0.1,[::1],testserver"
ALLOWED_HOSTS = [h.strip() for h in _hosts.split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.discord",
    "games.platform",
    *[app for app in os.environ.get("GENIUS_GAME_APPS", "").split(",") if app],
]
# Each game app registers its game type in its AppConfig.ready(); the platform never names a game.
GAME_APPS = [
    "games.horse_race",
    "games.cards_table",
    "games.middle_marathon",
    "games.arms_race",
    "games.host_run",
]
_skipped = set(os.environ.get("GENIUS_SKIP_GAME_APPS", "").split(","))
for _app in GAME_APPS:
    _has_config = (BASE_DIR / _app.replace(".", "/") / "apps.py").exists()
    if _has_config and _app not in INSTALLED_APPS and _app not in _skipped:
        INSTALLED_APPS.append(_app)

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Personal answers are kept by no shared cache (static files above it are the same for everyone).
    "genius.middleware.PrivateAnswers",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # A site with no account sends the home page's and the admin's visitors to ask for its first host.
    "games.platform.first_run.FirstRunMiddleware",
    # Every time shown in the viewer's zone (looked up only when a time is shown: games/platform/zones.py).
    "games.platform.zones.ZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # The demo (DEBUG on) answers a wrong URL with the site's own 404 page, not Django's technical one.
    "genius.middleware.SiteNotFound",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Axes goes last: it watches logins and refuses locked-out ones.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "genius.urls"
WSGI_APPLICATION = "genius.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "games.platform.signup.context",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'genius.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "0")),
        # A connection kept between requests is checked before a request uses it: one Postgres closed (a
        # restart, a failover) is replaced then, instead of failing that request with a 503.
        conn_health_checks=True,
    )
}
if os.environ.get("GENIUS_TEST_DB"):
    # Several test runs on one server (parallel sessions) each take a test database of their own.
    DATABASES["default"]["TEST"] = {"NAME": os.environ["GENIUS_TEST_DB"]}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A Postgres that is away (or a network that drops packets) fails a connection in seconds instead of
    # holding the process for as long as the operating system waits.
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = int(
        os.environ.get("GENIUS_DB_CONNECT_TIMEOUT", "5")
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_flag("GENIUS_DB_POOL"):
    # Django's own psycopg pool (used by the benchmark and production); tests open plain connections.
    # A request waits at most GENIUS_DB_POOL_TIMEOUT seconds for a connection (psycopg's default is 30).
    # Each connection is checked as it is handed out (an empty query, one round trip): after a Postgres
    # restart the pool's idle connections are all dead, and without the check each would cost a request
    # a 503 before the pool noticed (issue 28.3).
    from psycopg_pool import ConnectionPool

    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": 2,
        "max_size": 8,
        "timeout": float(os.environ.get("GENIUS_DB_POOL_TIMEOUT", "5")),
        "check": ConnectionPool.check_connection,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_flag("GENIUS_DB_PREPARE", True):
    # Parameters bound by the server, and each statement a connection has run twice kept prepared on it
    # (parsed and planned once): the same few statements answer every save and page, and planning them
    # cost Postgres more than running them. Off (GENIUS_DB_PREPARE=0) behind a pooler that cannot keep
    # prepared statements (PgBouncer in transaction mode); Django's own pool keeps its connections.
    DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=2)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Worker, beat and web share one file: wait for a lock instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
    # The tests' database is a file too, not Django's default of memory: an in-memory database that the live
    # server's thread shares answers "table is locked" at once to whichever connection comes second, which no
    # timeout waits out, while a file's lock is waited for like the site's own (the browser tests).
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", str(VAR_DIR / f"test-{os.environ.get('GENIUS_TEST_DB', 'genius')}.sqlite3")
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # allauth's: it logs in whoever comes back from Discord.
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Accounts (django-allauth): sign-up only from a season's invitation unless GENIUS_OPEN_SIGNUP is set
# (games/platform/signup.py); login by username; an email is optional and verified when given; a reset
# link goes by email. Discord login is offered when its client id and secret are set.
GENIUS_OPEN_SIGNUP = env_flag("GENIUS_OPEN_SIGNUP")
ACCOUNT_ADAPTER = "games.platform.signup.AccountAdapter"
SOCIALACCOUNT_ADAPTER = "games.platform.signup.SocialAccountAdapter"
# The sign-up forms answer the same for an address another account holds as for a free one (signup.py); a
# password change or reset lists the account's Discord logins and removes the ones ticked (password_forms.py).
ACCOUNT_FORMS = {
    "login": "games.platform.signup.LoginForm",
    "signup": "games.platform.signup.SignupForm",
    "change_password": "games.platform.password_forms.ChangePasswordForm",
    "reset_password_from_key": "games.platform.password_forms.ResetPasswordKeyForm",
}
SOCIALACCOUNT_FORMS = {"signup": "games.platform.signup.SocialSignupForm"}
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_USER_DISPLAY = "games.platform.people.shown_name"  # its messages name people as every page does
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[genius] "
ACCOUNT_SESSION_REMEMBER = None
# As the old login did: the form works for whoever is logged in already (log in as someone else).
ACCOUNT_AUTHENTICATED_LOGIN_REDIRECTS = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False  # this session stays; every other one ends (Django's hash check)
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if PRODUCTION else "http"
ACCOUNT_PREVENT_ENUMERATION = True
# Connecting or removing a login (Discord), or changing an email address, asks for the password again
# (allauth's reauthentication: a login does not count, only a password typed for it, for five minutes), and
# every such change and every password change or reset is emailed to the player's address.
ACCOUNT_REAUTHENTICATION_REQUIRED = True
ACCOUNT_EMAIL_NOTIFICATIONS = True
# Wrong passwords are counted by django-axes alone, per address and per username and address, with a delay
# that grows (genius/login_delays.py, AXES_* below). allauth's own count of them is off: its default counts
# per username too, which lets anyone keep a player out (usernames are public). Its other limits (sign-up,
# password reset: 5 a minute per address given, 20 per client) are allauth's defaults. Both count the
# client's address as the proxy saw it (genius/proxy.py).
ACCOUNT_RATE_LIMITS = {"login_failed": None}
SOCIALACCOUNT_LOGIN_ON_GET = False
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False  # a Discord email never logs into someone else's account
SOCIALACCOUNT_STORE_TOKENS = False
DISCORD_CLIENT_ID = os.environ.get("DISCORD_CLIENT_ID", "")
DISCORD_CLIENT_SECRET = os.environ.get("DISCORD_CLIENT_SECRET", "")
# Discord DMs from the site's bot (games/platform/discord_api.py, reach/discord.py): off while the token is
# empty. The community's server, which a player logging in with Discord joins so the bot can DM them.
DISCORD_BOT_TOKEN = os.environ.get("DISCORD_BOT_TOKEN", "")
DISCORD_GUILD_ID = os.environ.get("DISCORD_GUILD_ID", "")
# A rate limit this short is slept in the task; a longer one sends the task back to the outbox until then.
DISCORD_MAX_WAIT_SECONDS = float(os.environ.get("DISCORD_MAX_WAIT_SECONDS", "5"))
SOCIALACCOUNT_PROVIDERS = {
    "discord": {
        "APPS": [{"client_id": DISCORD_CLIENT_ID, "secret": DISCORD_CLIENT_SECRET}]
        if DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET
        else [],
        # guilds.join: a player who logs in with Discord is added to the community's server, which the bot
        # needs to share with them to DM them (games/platform/discord_join.py).
        "SCOPE": ["identify", "email", *(["guilds.join"] if DISCORD_GUILD_ID else [])],
    }
}

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
if not PRODUCTION:
    STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "genius.cache.RedisCache", "LOCATION": REDIS_URL}}
    # Sessions are read from Redis first (and written through to the database): no query per page for them.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: Redis when configured, otherwise a broker on the file system that needs no server (`make run`):
# genius/filebroker.py, which refuses a message it cannot write whole and sets aside a file that is not one.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL or "genius-files://localhost/")
CELERY_BROKER_TRANSPORT_OPTIONS = {}
if CELERY_BROKER_URL.startswith(("genius-files://", "filesystem://")):
    # All on one disk: a message is claimed and set aside by renaming it, never copied.
    _queue = VAR_DIR / "broker"
    for _sub in ("queue", "processed", "control", "corrupt"):
        (_queue / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue / "queue"),
        "data_folder_out": str(_queue / "queue"),
        "processed_folder": str(_queue / "processed"),
        "corrupt_folder": str(_queue / "corrupt"),
        "control_folder": str(_queue / "control"),
        "store_processed": False,
    }
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # A Redis that hangs must not hang a request that queues work after its commit (issue 18.1): the
    # publish gives up, and the task's outbox row is published again later (games/platform/outbox.py).
    CELERY_BROKER_TRANSPORT_OPTIONS.setdefault("socket_connect_timeout", 2)
    CELERY_BROKER_TRANSPORT_OPTIONS.setdefault("socket_timeout", 5)
    # No unacknowledged copies kept in Redis (kombu's ack emulation): what keeps a task until its work is
    # done is its outbox row (games/platform/outbox.py), or the sweep's query. With ack emulation, a worker
    # that held an unacknowledged task when Redis dropped exited ("Unrecoverable error": kombu's Redis
    # channel, closed a second time after its connection was collected, restores its unacknowledged tasks
    # through a transport whose client is gone, an AttributeError `hostname` that nothing catches); the
    # plain QoS logs a task it cannot give back, and the worker reconnects (tests/faults/test_outbox.py).
    CELERY_BROKER_TRANSPORT_OPTIONS["ack_emulation"] = False
# After the broker refused, a process does not ask it again for this many seconds (the outbox keeps the
# work); beat's relay publishes what is due every GENIUS_RESEND_SECONDS.
GENIUS_BROKER_RETRY_SECONDS = float(os.environ.get("GENIUS_BROKER_RETRY_SECONDS", "1"))
GENIUS_RESEND_SECONDS = float(os.environ.get("GENIUS_RESEND_SECONDS", "5"))
# An owed task not done this long after it was published is published again by the relay (a crash, a lost
# queue, a killed worker); one email or webhook post claimed this long and not sent is sent again. The
# second must outlast any one send (DJANGO_EMAIL_TIMEOUT, 20 s; a webhook post's 10 s).
GENIUS_OUTBOX_LEASE_SECONDS = float(os.environ.get("GENIUS_OUTBOX_LEASE_SECONDS", "60"))
GENIUS_DELIVERY_LEASE_SECONDS = float(os.environ.get("GENIUS_DELIVERY_LEASE_SECONDS", "60"))
CELERY_TASK_IGNORE_RESULT = True
# A task is acknowledged after it ran, and given back to the queue when its worker process dies, so a task
# of a killed worker process runs again at once (the outbox's relay would, a lease later). A worker whose
# connection drops lets its running tasks finish. Each worker process takes one task at a time, so none
# waits behind a slow one in a process's prefetch.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Deadlines have a queue of their own, with worker processes of their own (compose's `deadlines`,
# `serve_all`): a slow webhook receiver or a mail server fills only the default queue. The outbox's relay
# runs there too: it only publishes, and must not wait behind the deliveries it publishes again.
DEADLINES_QUEUE = "deadlines"
CELERY_TASK_ROUTES = {
    f"games.platform.tasks.{name}": {"queue": DEADLINES_QUEUE}
    for name in ("sweep", "resolve_round", "expire_clock", "start_clocks", "relay")
}
CELERY_TASK_ALWAYS_EAGER = env_flag("CELERY_TASK_ALWAYS_EAGER")
# Where the site is, as players reach it: every link in an email is built from this address, allauth's (a
# password reset, an address to confirm) included (games/platform/signup.py), never from the request's Host.
# Production without it takes https:// and the first of DJANGO_ALLOWED_HOSTS.
GENIUS_SITE_URL = os.environ.get("GENIUS_SITE_URL", "").rstrip("/")
if not GENIUS_SITE_URL and PRODUCTION:
    if ALLOWED_HOSTS[0].startswith(".") or "*" in ALLOWED_HOSTS[0]:
        raise RuntimeError(
            "Set GENIUS_SITE_URL to the site's address (https://genius.example.org): the first of "
            "DJANGO_ALLOWED_HOSTS is a pattern, and emails need one address to link to."
        )
    GENIUS_SITE_URL = f"https://{ALLOWED_HOSTS[0]}"
GENIUS_SITE_URL = GENIUS_SITE_URL or "http://localhost:8000"
# Emails that met a database or mail server error are tried again, doubling from this wait up to the cap.
GENIUS_NOTIFY_RETRY_SECONDS = float(os.environ.get("GENIUS_NOTIFY_RETRY_SECONDS", "5"))
GENIUS_NOTIFY_RETRY_MAX_SECONDS = float(os.environ.get("GENIUS_NOTIFY_RETRY_MAX_SECONDS", "120"))
# A game page open and visible is remembered this long after its last poll (games/platform/presence.py).
GENIUS_PRESENCE_SECONDS = float(os.environ.get("GENIUS_PRESENCE_SECONDS", "40"))
# A live match's "your turn" waits this long, and is dropped if the player moved meanwhile or is watching.
GENIUS_YOUR_TURN_DELAY_SECONDS = float(os.environ.get("GENIUS_YOUR_TURN_DELAY_SECONDS", "10"))
# The daily digest goes at this hour of each player's own day; beat looks for digests due this often.
GENIUS_DIGEST_HOUR = int(os.environ.get("GENIUS_DIGEST_HOUR", "8"))
GENIUS_DIGEST_CHECK_SECONDS = float(os.environ.get("GENIUS_DIGEST_CHECK_SECONDS", "600"))
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# The sweep is the only deadline mechanism: no long ETA tasks that Redis could re-deliver.
GENIUS_SWEEP_SECONDS = float(os.environ.get("GENIUS_SWEEP_SECONDS", "5"))
# Every worker runs a heartbeat on each of its queues this often; the deep status (/healthz/deep/) says a
# queue's workers do not answer after three missed (games/platform/heartbeats.py).
GENIUS_WORKER_HEARTBEAT_SECONDS = float(os.environ.get("GENIUS_WORKER_HEARTBEAT_SECONDS", "30"))
# A message owed to the outside (an email, a webhook) waiting longer than this: the outbox is not draining.
GENIUS_OUTBOX_LATE_SECONDS = float(os.environ.get("GENIUS_OUTBOX_LATE_SECONDS", "300"))
# Game page bodies kept per version and viewer (games/platform/pagecache.py): only with a cache every
# process shares, since the worker moves the stamps too.
GENIUS_PAGE_CACHE = env_flag("GENIUS_PAGE_CACHE", default=bool(REDIS_URL))
GENIUS_PAGE_CACHE_SECONDS = int(os.environ.get("GENIUS_PAGE_CACHE_SECONDS", "600"))
# A Redis that does not answer is an empty cache (genius/cache.py): each command waits at most
# GENIUS_REDIS_TIMEOUT seconds, and after a failure the process leaves Redis alone that many seconds.
GENIUS_REDIS_TIMEOUT = float(os.environ.get("GENIUS_REDIS_TIMEOUT", "1"))
GENIUS_CACHE_RETRY_SECONDS = float(os.environ.get("GENIUS_CACHE_RETRY_SECONDS", "1"))
# Live pages (docs/live.md): moves are published on the pub/sub of this Redis (by default REDIS_URL's) and
# relayed to the pages' event streams (GET /events/). Empty: no push, the pages poll as before. The prefix
# names the channels (pub/sub ignores database numbers: two sites on one Redis need two prefixes).
GENIUS_PUSH_URL = os.environ.get("GENIUS_PUSH_URL", REDIS_URL)
GENIUS_PUSH_PREFIX = os.environ.get("GENIUS_PUSH_PREFIX", "genius:")
# Which channel carries the messages: "redis" (pub/sub on GENIUS_PUSH_URL), "database" (a table every process
# shares, read by one poller per web process: the embedded `make run`, which has no Redis) or "off" (no
# push: the pages poll as before). Empty: "redis" when a Redis is named, else "database".
GENIUS_PUSH_BACKEND = os.environ.get("GENIUS_PUSH_BACKEND", "").strip().lower()
if GENIUS_PUSH_BACKEND not in {"", "redis", "database", "off"}:
    raise RuntimeError(f"GENIUS_PUSH_BACKEND is redis, database or off, not {GENIUS_PUSH_BACKEND!r}.")
if GENIUS_PUSH_BACKEND == "redis" and not GENIUS_PUSH_URL:
    raise RuntimeError("GENIUS_PUSH_BACKEND=redis needs a Redis: set GENIUS_PUSH_URL or REDIS_URL.")
# The database channel: each web process reads new messages this often (one query, whatever the number of
# its streams), and a message is deleted this long after it was written.
GENIUS_PUSH_POLL_SECONDS = float(os.environ.get("GENIUS_PUSH_POLL_SECONDS", "0.25"))
GENIUS_PUSH_KEEP_SECONDS = float(os.environ.get("GENIUS_PUSH_KEEP_SECONDS", "60"))
# Open streams one user (or one visitor's session) may hold at once, across this process's tabs.
GENIUS_STREAMS_PER_USER = int(os.environ.get("GENIUS_STREAMS_PER_USER", "8"))
# A ping after this long without a message keeps proxies from closing an idle stream and tells the page
# its stream is alive (with the game's version: docs/live.md); the browser reconnects after RETRY ms.
GENIUS_STREAM_PING_SECONDS = float(os.environ.get("GENIUS_STREAM_PING_SECONDS", "25"))
GENIUS_STREAM_RETRY_MS = int(os.environ.get("GENIUS_STREAM_RETRY_MS", "3000"))
# While its stream is heard, a page's parts that no ping checks (a chat, the home page's list) still poll
# this often (the safety net); a stream silent this long is taken for dead, and every part polls at its
# own interval.
GENIUS_STREAM_SAFETY_POLL_SECONDS = int(os.environ.get("GENIUS_STREAM_SAFETY_POLL_SECONDS", "45"))
if GENIUS_STREAM_PING_SECONDS >= GENIUS_STREAM_SAFETY_POLL_SECONDS:
    raise RuntimeError(
        "GENIUS_STREAM_PING_SECONDS must be below GENIUS_STREAM_SAFETY_POLL_SECONDS: a page whose stream is"
        " silent that long takes it for dead and polls."
    )
GENIUS_GAME_MODULES = [m for m in os.environ.get("GENIUS_GAME_MODULES", "").split(",") if m]
# Unset: a round's reminder goes an eighth of its window before it closes, and a last call an hour before
# for windows over 4 h (games/platform/services/leads.py). Set: that fixed lead in hours (0: none at all).
GENIUS_REMINDER_HOURS = (
    float(os.environ["GENIUS_REMINDER_HOURS"]) if os.environ.get("GENIUS_REMINDER_HOURS") else None
)
GENIUS_RESOLVE_MAX_ATTEMPTS = int(os.environ.get("GENIUS_RESOLVE_MAX_ATTEMPTS", "3"))
# How long one transaction on a game waits for its rows, and for one statement (services/locks.py): a game
# whose rows are held by a stuck transaction delays only the work on that game.
GENIUS_LOCK_WAIT_SECONDS = float(os.environ.get("GENIUS_LOCK_WAIT_SECONDS", "3"))
GENIUS_STATEMENT_SECONDS = float(os.environ.get("GENIUS_STATEMENT_SECONDS", "30"))
# Whether a deadline has passed is decided by the database's clock, in every process (genius/clock.py): a
# web or worker machine whose clock is off closes no round early and refuses no save sent on time. Off in
# the tests only, whose time travel moves this process's clock and not the database's.
GENIUS_DATABASE_CLOCK = env_flag("GENIUS_DATABASE_CLOCK", True)
# Webhooks go out over https to the internet only (games/platform/destinations.py). Plain http is allowed
# with DEBUG or this flag; a receiver on this machine's loopback only with the second (tests, a local try).
GENIUS_WEBHOOKS_HTTP = env_flag("GENIUS_WEBHOOKS_HTTP")
GENIUS_WEBHOOKS_TO_LOOPBACK = env_flag("GENIUS_WEBHOOKS_TO_LOOPBACK")
# A webhook delivery that failed is retried six times, waiting from this many seconds, doubling each time
# up to the cap, with jitter, the wait kept on its outbox row (games/platform/tasks.py, outbox.py).
GENIUS_WEBHOOK_RETRY_SECONDS = float(os.environ.get("GENIUS_WEBHOOK_RETRY_SECONDS", "10"))
GENIUS_WEBHOOK_RETRY_MAX_SECONDS = float(os.environ.get("GENIUS_WEBHOOK_RETRY_MAX_SECONDS", "300"))
# Web Push to players' phones and desktops (games/platform/reach/push.py): the site's VAPID key pair, as
# `manage.py vapid_keys` prints it (base64url: the public key's 65-byte point, the private key's 32 bytes),
# and a contact the push services may write to (mailto:...). Any of the three empty: push is off, the account
# page offers no notifications, and players are reached by their other channels.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "").strip()
# Email goes to the console in development unless an SMTP host is given (or GENIUS_EMAIL_DIR, where `make
# run` writes each email as a file); production always uses SMTP.
_smtp_host = os.environ.get("DJANGO_EMAIL_HOST", "localhost" if PRODUCTION else "")
if _smtp_host:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            # A send gives up well within its claim (GENIUS_DELIVERY_LEASE_SECONDS): no second sender starts
            # while the first may still be talking to the mail server.
            "OPTIONS": {
                "host": _smtp_host,
                "port": int(os.environ.get("DJANGO_EMAIL_PORT", "25")),
                "timeout": float(os.environ.get("DJANGO_EMAIL_TIMEOUT", "20")),
            },
        }
    }
elif os.environ.get("GENIUS_EMAIL_DIR"):
    # `make run` (serve_all): emails are files in var/outbox/, not pages of text in the terminal.
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": os.environ["GENIUS_EMAIL_DIR"]},
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "genius@localhost")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # JSON nested past a few dozen levels is a 400, not a RecursionError (genius/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "genius.parsers.DepthLimitedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.platform.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "genius API",
    "DESCRIPTION": "Everything a player or a host can do on the site, for bots and other clients.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI's files come from the site's own static files (drf-spectacular-sidecar), not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A row's id in a path (games/platform/paths.py): an integer a 64-bit key can hold.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.platform.api.schema.document_errors",
    ],
}

# Login failures (genius/login_delays.py): AXES_FAILURE_LIMIT wrong passwords for a username from one
# address, or GENIUS_LOGIN_ADDRESS_FREE_TRIES from one address, are free; then the next try from there waits
# GENIUS_LOGIN_DELAY_SECONDS, doubling with each further failure up to GENIUS_LOGIN_DELAY_MAX_SECONDS. A try
# while waiting is refused (429, the wait in words) and not counted; failures are forgotten a day after the
# last (AXES_COOLOFF_TIME); the right password clears its (username, address) count.
AXES_HANDLER = "genius.login_delays.LoginDelays"
AXES_LOCKOUT_CALLABLE = "genius.login_delays.lockout_response"
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
GENIUS_LOGIN_ADDRESS_FREE_TRIES = int(os.environ.get("GENIUS_LOGIN_ADDRESS_FREE_TRIES", "20"))
GENIUS_LOGIN_DELAY_SECONDS = float(os.environ.get("GENIUS_LOGIN_DELAY_SECONDS", "60"))
GENIUS_LOGIN_DELAY_MAX_SECONDS = float(os.environ.get("GENIUS_LOGIN_DELAY_MAX_SECONDS", "3600"))
AXES_COOLOFF_TIME = timedelta(days=1)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Behind TLS proxies (production needs one), every request comes from the proxy's address: the client's
# is read from X-Forwarded-For instead, GENIUS_PROXY_COUNT entries from the right (genius/proxy.py), and
# X-Forwarded-Proto says whether the client used https. Without the flag neither header is believed.
GENIUS_BEHIND_PROXY = env_flag("GENIUS_BEHIND_PROXY")
GENIUS_PROXY_COUNT = int(os.environ.get("GENIUS_PROXY_COUNT", "1"))
AXES_CLIENT_IP_CALLABLE = "genius.proxy.client_ip"
if GENIUS_BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    # The Discord button posts here and is redirected to Discord's consent page: browsers hold a form's
    # redirects to form-action too.
    "form-action": [CSP.SELF, "https://discord.com"],
}

if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_flag("DJANGO_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_HTTPONLY = True

# Every server error is written with its traceback (issue 18.5): Django's own default writes the
# `django.request` errors to the console only with DEBUG on, and mails them to nobody. One console
# handler (the container's log), a line per record with its time, level, logger and process; the
# traceback follows its line.
_LOG_LEVEL = os.environ.get("GENIUS_LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s %(process)d: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line"}},
    # Everything reaches the one handler through the root; each logger only sets how much it says.
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        "django": {"level": "INFO"},
        "django.request": {"level": "WARNING"},  # 4xx as warnings, 5xx as errors with the traceback
        "celery": {"level": "INFO"},
        "games": {"level": _LOG_LEVEL},
        "genius": {"level": _LOG_LEVEL},
    },
}
