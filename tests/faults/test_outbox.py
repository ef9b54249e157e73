"""Nothing a commit owes the outside is lost or sent twice (issue 28.1, 28.2): a crash between the commit and
the enqueue, a flush of the broker's Redis, the same task delivered twice at once, and Redis dropping while
the worker holds a task and a webhook retry is pending, each under a live gunicorn and Celery worker (a
prefork pool, as compose's, with beat and its relay).

Every email goes to a local SMTP stand-in and every webhook post to a local receiver, both recording each
call (tests/faults/standins.py): each test counts 0 lost and 0 duplicated, and waits until the outbox is
empty, after which nothing can be sent again.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass

import pytest
import redis
import requests
from django.conf import settings
from django.db import connection
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.platform import outbox
from games.platform.models import Delivery, Event, Game, OutboxTask, Round, Webhook
from games.platform.services import games as game_services
from games.platform.services.rounds import round_resolve
from tests.faults.stack import OwnRedis, Stack, wait_until
from tests.faults.standins import MailStandIn, Script, WebhookStandIn

# One xdist worker runs the module (--dist loadgroup): its live stack starts once, not once a worker.
pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True), pytest.mark.xdist_group("outbox")]

TIMEOUT = 30
LEASE = 3  # seconds: an owed task not done, or a delivery claimed and not sent, this long is done again
RESULTS = [
    ("alice@example.com", "Tally: Round 0 is resolved"),
    ("bob@example.com", "Tally: Round 0 is resolved"),
    ("alice@example.com", "Tally: Round 1 is open"),
    ("bob@example.com", "Tally: Round 1 is open"),
]


@dataclass
class Live:
    stack: Stack
    mail: MailStandIn
    hooks: WebhookStandIn


@pytest.fixture(scope="module")
def live(django_db_setup, django_db_blocker, tmp_path_factory):
    """One live stack for the module, its email and webhooks going to the stand-ins."""
    if connection.vendor != "postgresql":
        pytest.skip("The live stack is other processes: it needs the tests' PostgreSQL database.")
    if not shutil.which("redis-server"):
        pytest.skip("No redis-server on the PATH (apt-get install redis-server).")
    workdir = tmp_path_factory.mktemp("outbox")
    mail, hooks = MailStandIn(), WebhookStandIn()
    own = OwnRedis(workdir=workdir)
    own.start()
    db = settings.DATABASES["default"]
    stack = Stack(
        redis=own,
        database_url=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        logdir=workdir,
        pool="prefork",
        concurrency=2,
        extra_env={
            "DJANGO_EMAIL_HOST": "127.0.0.1",
            "DJANGO_EMAIL_PORT": str(mail.port),
            "GENIUS_WEBHOOKS_HTTP": "1",
            "GENIUS_WEBHOOKS_TO_LOOPBACK": "1",
            "GENIUS_OUTBOX_LEASE_SECONDS": str(LEASE),
            "GENIUS_DELIVERY_LEASE_SECONDS": str(LEASE),
            "GENIUS_NOTIFY_RETRY_SECONDS": "0.5",
            "GENIUS_WEBHOOK_RETRY_SECONDS": "0.5",
            "GENIUS_REMINDER_HOURS": "0",  # no reminder emails: each test counts exactly what it caused
        },
    )
    with django_db_blocker.unblock():
        stack.start()
    yield Live(stack, mail, hooks)
    stack.stop()
    own.stop()
    mail.close()
    hooks.close()


@pytest.fixture
def world(live, season, hank, alice, bob):
    """A running Tally (alice and bob, hank hosting) whose season has one webhook; the stand-ins empty."""
    live.mail.reset()
    live.hooks.reset()
    live.stack.crash_file.unlink(missing_ok=True)
    game = game_services.game_create(season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank)
    for player in (alice, bob):
        game_services.game_seat(game=game, user=player, actor=hank)
    game_services.game_start(game=game, actor=hank)
    Webhook.objects.create(season=season, url=live.hooks.url("/hook"))
    return {"game": game, "hank": Token.objects.create(user=hank).key, "before": timezone.now()}


def host_api(live: Live, token: str, game: Game, action: str, body: dict) -> requests.Response:
    return requests.post(
        f"{live.stack.url}/api/games/{game.id}/host/{action}/",
        json=body,
        headers={"Authorization": f"Token {token}"},
        timeout=TIMEOUT,
    )


def announcements(world: dict, path: str = "/hook") -> set[tuple[str, str]]:
    """Every (webhook path, event ref) the game's announcements owe since its webhooks were made."""
    refs = Event.objects.filter(
        game=world["game"], kind=Event.Kind.ANNOUNCEMENT, created_at__gte=world["before"]
    ).values_list("ref", flat=True)
    return {(path, ref) for ref in refs}


def all_done(live: Live, emails: list, posts: set) -> bool:
    """Every email and post arrived, and nothing is owed any more (so nothing more can come)."""
    return (
        set(emails) <= live.mail.got()
        and posts <= set(live.hooks.taken())
        and not OutboxTask.objects.exists()
    )


def state(live: Live, emails: list, posts: set):
    """What a wait that ran out saw: the owed rows, what arrived, and the end of the worker's log."""

    def said() -> str:
        rows = list(OutboxTask.objects.values_list("id", "name", "due_at", "attempts", "last_error"))
        log = live.stack.log("worker").splitlines()[-40:]
        return "\n".join(
            [
                f"now {timezone.now().isoformat()}; owed rows: {rows}",
                f"emails missing: {sorted(set(emails) - live.mail.got())}",
                f"posts missing: {sorted(posts - set(live.hooks.taken()))}",
                "worker log (end):",
                *log,
            ]
        )

    return said


def lost_and_duplicated(live: Live, emails: list, posts: set) -> dict:
    time.sleep(1)  # a relay tick: anything still on its way would arrive now
    taken = live.hooks.taken()
    return {
        "emails lost": sorted(set(emails) - live.mail.got()),
        "emails duplicated": live.mail.duplicated(),
        "posts lost": sorted(posts - set(taken)),
        "posts duplicated": {post: n for post, n in taken.items() if n > 1},
    }


NOTHING = {"emails lost": [], "emails duplicated": {}, "posts lost": [], "posts duplicated": {}}


def test_a_crash_between_the_commit_and_the_enqueue_loses_no_email_and_no_webhook(live, world):
    game = world["game"]
    live.stack.crash_file.touch()
    try:
        host_api(live, world["hank"], game, "resolve", {})
        pytest.fail("the web process should have died before publishing")
    except requests.ConnectionError:
        pass  # the process that committed died before it could answer or publish
    finally:
        live.stack.crash_file.unlink()
    assert Round.objects.get(game=game, number=0).status == Round.Status.RESOLVED  # stored
    assert set(OutboxTask.objects.values_list("name", flat=True)) == {
        "notify_round_resolved",
        "deliver_webhook",
    }
    posts = announcements(world)
    wait_until(
        lambda: all_done(live, RESULTS, posts),
        "the relay delivering what the crash left",
        60,
        why=state(live, RESULTS, posts),
    )
    assert lost_and_duplicated(live, RESULTS, posts) == NOTHING
    assert "was sent SIGKILL" in live.stack.log("web")


def test_a_flush_of_the_brokers_redis_loses_no_email_and_no_webhook(live, world):
    game = world["game"]
    live.stack.pause_worker()
    time.sleep(1.5)  # the worker's last BRPOP (1 s) runs out: what is published now stays in the list
    try:
        assert host_api(live, world["hank"], game, "resolve", {}).status_code == 200
        told = host_api(live, world["hank"], game, "announce", {"text": "The broker is flushed"})
        assert told.status_code == 201, told.text
        broker = redis.Redis(port=live.stack.redis.port)
        assert broker.llen("celery") == 3  # the emails' task and two posts, published, waiting for the worker
        broker.flushall()
    finally:
        live.stack.resume_worker()
    posts = announcements(world)
    assert len(posts) == 2
    wait_until(
        lambda: all_done(live, RESULTS, posts),
        "the relay publishing what the flush lost",
        60,
        why=state(live, RESULTS, posts),
    )
    assert lost_and_duplicated(live, RESULTS, posts) == NOTHING


def test_a_task_delivered_twice_at_once_sends_each_email_and_post_once(live, world, monkeypatch):
    """The same owed task published twice (a broker that delivered it twice, a relay that published it while
    its first run was slow): both copies run at once in the worker's two processes."""
    game = world["game"]
    live.mail.delay = 0.3  # a slow mail server: the two runs overlap
    live.hooks.scripts["/hook"] = Script(hold=1.0)
    monkeypatch.setattr(outbox, "_publish_owed", lambda *args: None)  # the test publishes them itself
    round_resolve(round_id=Round.objects.get(game=game, number=0).pk, early=True)
    owed = list(OutboxTask.objects.values_list("pk", "name", "args"))
    assert {name for _, name, _ in owed} == {"notify_round_resolved", "deliver_webhook"}
    with_broker(live, lambda publish: [publish(*task) for task in owed for _copy in range(2)])
    posts = announcements(world)
    wait_until(
        lambda: all_done(live, RESULTS, posts),
        "both copies run, and the outbox empty",
        60,
        why=state(live, RESULTS, posts),
    )
    assert lost_and_duplicated(live, RESULTS, posts) == NOTHING
    assert len({m.message_id for m in live.mail.received}) == 4
    assert Delivery.objects.filter(sent_at__isnull=False).count() == 5


def test_a_worker_holding_a_task_while_redis_drops_stays_up_and_delivers_the_retry_pending(live, world):
    """A webhook retry is pending (the receiver answered 503) and the worker holds another post in hand (its
    receiver takes 3 s) when Redis stops; Redis comes back empty. The worker stays up, and each post is
    taken exactly once."""
    game, stack = world["game"], live.stack
    season = game.season
    Webhook.objects.filter(season=season).delete()
    Webhook.objects.create(season=season, url=live.hooks.url("/flaky"))
    Webhook.objects.create(season=season, url=live.hooks.url("/slow"))
    live.hooks.scripts["/flaky"] = Script(statuses=[503, 503])
    live.hooks.scripts["/slow"] = Script(hold=3.0)
    told = host_api(live, world["hank"], game, "announce", {"text": "Redis is about to drop"})
    assert told.status_code == 201, told.text
    wait_until(
        lambda: "/slow" in live.hooks.started and any(p.path == "/flaky" for p in live.hooks.posts),
        "a post in hand and a retry pending",
    )
    wait_until(lambda: OutboxTask.objects.filter(attempts__gte=1).exists(), "the failed post's retry pending")

    stack.redis.stop()
    time.sleep(1.5)
    assert stack.worker.poll() is None, "the worker exited when Redis dropped"
    stack.redis.start()  # empty, as a Redis without persistence comes back

    posts = announcements(world, "/flaky") | announcements(world, "/slow")
    wait_until(
        lambda: all_done(live, [], posts),
        "the retry and the held post delivered",
        60,
        why=state(live, [], posts),
    )
    assert stack.worker.poll() is None, "the worker exited"
    assert "Unrecoverable error" not in stack.log("worker")
    assert lost_and_duplicated(live, [], posts) == NOTHING
    flaky = [p for p in live.hooks.posts if p.path == "/flaky"]
    assert [p.status for p in flaky] == [503, 503, 204] and len({p.key for p in flaky}) == 1


def with_broker(live: Live, publish_all) -> None:
    """Publish owed tasks to the live stack's broker, as the site does: the row's key as the task id."""
    from genius.celery import app

    eager, app.conf.task_always_eager = app.conf.task_always_eager, False
    try:
        with app.connection_for_write(live.stack.redis.url) as conn:

            def publish(pk, name, args):
                app.send_task(
                    f"games.platform.tasks.{name}", args=args, task_id=f"outbox-{pk}", connection=conn
                )

            publish_all(publish)
    finally:
        app.conf.task_always_eager = eager
