"""Shared fixtures: a season, a host, two players and an outsider, and the test-only game types."""

from __future__ import annotations

import os
import re

import pytest

from games.platform import registry
from games.platform.models import Season
from games.platform.services import games as game_services
from tests.toy_game import Tally, TallyDuel

# The README's `make test` runs on SQLite with no Redis, as a newcomer's machine does; there the tests that
# need PostgreSQL or Redis skip, saying why. They are marked `services` (the fault suite's and the real
# workers' by their own markers), and CI runs them again on PostgreSQL and Redis (`.ci/run`). A test that
# skips for want of a service without the mark would run nowhere: the session fails, naming it.
NEEDS_A_SERVICE = re.compile(r"postgres|redis|broker|row locks|other process|live stack", re.IGNORECASE)
_skipped_unmarked: list[str] = []


def pytest_configure(config):
    # `make test` runs the suite on pytest-xdist's workers (gw0, gw1, ...), each a process of its own.
    # pytest-django gives each its own test database (name_gw0, ...); the Redis databases are given here.
    # Every test empties the page cache, and the real-worker tests flush their broker's database: two
    # workers on one Redis database would empty each other's mid-test. Worker N takes the Nth database
    # after the one given for the cache (REDIS_URL) and the Nth before it for the broker
    # (GENIUS_TEST_BROKER, 15 unless given): gw0 keeps both, so a run without -n is as before.
    worker = getattr(config, "workerinput", {}).get("workerid", "")
    if not worker.startswith("gw") or worker == "gw0":
        return
    n = int(worker[2:])
    broker = os.environ.get("GENIUS_TEST_BROKER", "redis://127.0.0.1:6379/15")
    os.environ["GENIUS_TEST_BROKER"] = _other_redis_database(broker, -n)
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        return
    from django.conf import settings
    from django.test.utils import override_settings

    own = _other_redis_database(redis_url, n)
    os.environ["REDIS_URL"] = own  # for the tests that read it, and the processes they start
    changed = {"REDIS_URL": own, "CACHES": {"default": {**settings.CACHES["default"], "LOCATION": own}}}
    if settings.CELERY_BROKER_URL == redis_url:
        changed["CELERY_BROKER_URL"] = own
        if "CELERY_BROKER_URL" in os.environ:
            os.environ["CELERY_BROKER_URL"] = own
    # For the whole session: Django drops the caches it made with the old location (setting_changed).
    override_settings(**changed).enable()


def _other_redis_database(url: str, step: int) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0) + step
    if not 0 <= number <= 15:
        raise pytest.UsageError(f"No Redis database {number} for an xdist worker ({url}{step:+}): fewer -n.")
    return urlunsplit(parts._replace(path=f"/{number}"))


def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("faults") or item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.services)
        if "embedded_database" in item.fixturenames:
            item.add_marker(pytest.mark.own_site)
    items[:] = _longest_first(items)


# The modules whose tests take a minute or more each (`--durations`): the whole suite's longest.
LONGEST_MODULES = {
    "tests/proof/test_bench_smoke.py",
    "tests/proof/test_no_leaks.py",
    "tests/proof/test_hidden_perturbation.py",
    "tests/platform/test_season_from_an_empty_site_browser.py",
    "tests/platform/test_accessibility_pages.py",
    "tests/platform/test_season_browser.py",
    "tests/host_run/test_host_run_season_browser.py",
}
LONG_MODULE = re.compile(r"_browser\.py$|/test_hidden_perturb\.py$|^tests/faults/")


def _longest_first(items):
    """The longest tests first, the many short ones last: pytest-xdist hands tests out in this order, and a
    minute-long test handed out last kept one worker busy while the other had finished (CI's 2 workers).

    pytest-django's order stays: every test on the database before any transactional one (a transactional
    test empties the tables, the rows the migrations made too). Tests without the database may go anywhere:
    the long ones first, the short ones (the rules' tests, most of them) last, to even out the workers' ends.
    Otherwise the order is kept, and a module's tests of one kind stay together."""
    from pytest_django.plugin import validate_django_db

    def database(item) -> str:
        marker = item.get_closest_marker("django_db")
        transaction = False
        if marker:
            transaction, reset_sequences, *_ = validate_django_db(marker)
            transaction = transaction or reset_sequences
        if transaction or {"transactional_db", "live_server"} & set(item.fixturenames):
            return "transactional"
        return "db" if marker or "db" in item.fixturenames else "none"

    def weight(item) -> int:
        path = item.nodeid.split("::", 1)[0]
        if path in LONGEST_MODULES:
            return 0
        long = LONG_MODULE.search(path) or any(
            item.get_closest_marker(m) for m in ("browser", "faults", "slow")
        )
        return 1 if long else 2

    modules: dict[str, int] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        modules[path] = min(modules.get(path, 2), weight(item))

    def key(item):
        tier = modules[item.nodeid.split("::", 1)[0]]
        kind = database(item)
        phase = {"db": 1, "transactional": 2}.get(kind, 0 if tier < 2 else 3)
        return phase, tier

    return sorted(items, key=key)


def pytest_runtest_logreport(report):
    if report.skipped and "services" not in report.keywords:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if NEEDS_A_SERVICE.search(reason):
            _skipped_unmarked.append(f"{report.nodeid} ({reason})")


def pytest_sessionfinish(session, exitstatus):
    if _skipped_unmarked:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        reporter.write_sep("=", "skipped for want of PostgreSQL or Redis, not marked `services`", red=True)
        reporter.write_line("CI would run these nowhere: mark them `services`.", red=True)
        for line in _skipped_unmarked:
            reporter.write_line(f"  {line}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def toy_types():
    registry.register(Tally())
    registry.register(TallyDuel())
    yield
    registry.unregister("tally")
    registry.unregister("tally_duel")


@pytest.fixture(autouse=True)
def _page_cache(settings):
    # The page cache is on in every test (one process, so the memory cache will do), and starts empty: ids
    # repeat between tests, and a body cached by one must not be served to the next.
    from django.core.cache import cache

    settings.GENIUS_PAGE_CACHE = True
    cache.clear()


@pytest.fixture(autouse=True)
def _process_clock(settings):
    # time-machine moves this process's clock, not the database's: with the database's clock on, a test's
    # travel would be undone (genius/clock.py). tests/platform/test_one_clock.py turns it on.
    settings.GENIUS_DATABASE_CLOCK = False


@pytest.fixture(autouse=True)
def _no_game_found_held():
    # A game a request found held is only glanced at for a moment after (services/locks.py); ids repeat
    # between tests, and one test's held game must not be another's.
    from games.platform.services.locks import held_until

    held_until.clear()


@pytest.fixture(autouse=True)
def _redis_rested():
    # One test's Redis outage (genius/backoff.py) and the live messages it held are not the next test's.
    from games.platform import live_push
    from genius import backoff

    for resting in backoff._backoffs.values():
        resting.down_until = 0.0
    live_push._held.clear()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # The real hasher is slow on purpose; tests make many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _eager_celery(settings):
    from genius.celery import app

    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


@pytest.fixture
def make_user(django_user_model):
    def make(username, **extra):
        return django_user_model.objects.create_user(
            username=username, password="pw-" + username, email=f"{username}@example.com", **extra
        )

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def charlie(make_user):
    return make_user("charlie")


@pytest.fixture
def hank(make_user):
    return make_user("hank", is_staff=True)


@pytest.fixture
def season(hank):
    season = Season.objects.create(name="Season 1")
    season.hosts.add(hank)
    return season


@pytest.fixture
def tally(season, hank, alice, bob):
    """A running Tally game: alice and bob seated, hank hosting, Round 0 open."""
    game = game_services.game_create(season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank)
    game_services.game_seat(game=game, user=alice, actor=hank)
    game_services.game_seat(game=game, user=bob, actor=hank)
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    return game


CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-quic",
    "--disable-sync",
]


@pytest.fixture
def browser():
    """Debian's chromium driven by Playwright (never Playwright's own browser download)."""
    path = os.environ.get("GENIUS_BROWSER", "/usr/bin/chromium")
    if not os.path.exists(path):
        pytest.skip(f"No chromium at {path}: apt-get install chromium (CI does).")
    # Playwright's sync API runs an event loop in this thread; the ORM calls of the test itself are safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page_as(browser, live_server, monkeypatch):
    """page_as(user) -> a page logged in as user (None: a spectator who is not logged in); `width` and the
    browser's `zone` may be given."""
    from django.conf import settings
    from django.test import Client

    from tests.accessibility import AxeWatch

    contexts = []
    pages = []
    axe = AxeWatch()  # every page it opens is checked with axe-core (tests/accessibility.py)
    axe.hooked(monkeypatch)

    def open_page(user=None, width=1000, zone=None):
        # `zone`: the browser's time zone (an IANA name), UTC unless given: a user without a zone of their
        # own is given the browser's at their first page, so the machine's must not decide what tests read.
        context = browser.new_context(viewport={"width": width, "height": 900}, timezone_id=zone or "UTC")
        contexts.append(context)
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
            )
        page = context.new_page()
        page.set_default_timeout(15000)
        # Checked at each width a test opens a page at: a phone's layout is not the desktop's.
        axe.watch(page, who=f"{user.username if user is not None else 'a visitor'} at {width} px")
        pages.append(page)
        return page

    open_page.axe = axe  # what was checked, for a test that wants to know
    yield open_page
    if pages:
        axe.settle(pages[-1])
    for context in contexts:
        context.close()
    if faults := axe.report():
        pytest.fail(faults, pytrace=False)


def seat_of(game, user):
    return game.seats.get(user=user)


def in_view(page, selector: str) -> bool:
    """The element is on the screen, where the player is looking (a browser test's page)."""
    return page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                      return r.top >= -1 && r.bottom <= window.innerHeight + 1; }""",
        selector,
    )


@pytest.fixture(scope="session")
def embedded_database(tmp_path_factory):
    """A migrated SQLite database holding a running Tally, for the site as `make run` serves it
    (tests/embedded.py): made once, copied by each test that serves it."""
    from tests.embedded import Template, manage, tally_game

    template = tmp_path_factory.mktemp("embedded-template")
    manage(template, "migrate", "--no-input", "-v0")
    game, round_id = tally_game(template)
    return Template(template / "genius.sqlite3", game, round_id)
