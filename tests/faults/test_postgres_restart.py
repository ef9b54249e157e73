"""A Postgres restart under live gunicorns (issue 28.3): once Postgres answers again, no request gets a 503.

The cluster is the test's own (initdb into a temporary directory, on a port of its own, holding a copy of
the tests' database), never the machine's shared one. Two gunicorns serve it: one with Django's psycopg pool
(GENIUS_DB_POOL=1), whose idle connections all die in the restart and are checked as they are handed out,
and one with connections kept between requests (DJANGO_CONN_MAX_AGE), checked before a request uses them
(CONN_HEALTH_CHECKS). Every request reads the database (a token's API call, a save), so a dead connection
handed to one would show as a 503.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import psycopg
import pytest
import requests
from django.conf import settings
from django.db import connection
from rest_framework.authtoken.models import Token

from tests.faults.stack import OwnPostgres, Stack, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30


@pytest.fixture
def own_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("The cluster holds a copy of the tests' PostgreSQL database.")
    if not OwnPostgres.available():
        pytest.skip("No PostgreSQL server in /usr/lib/postgresql (apt-get install postgresql).")
    cluster = OwnPostgres(workdir=Path(tempfile.mkdtemp(prefix="genius-pg-")))
    cluster.start()
    yield cluster
    cluster.stop()
    shutil.rmtree(cluster.workdir, ignore_errors=True)


def test_after_a_postgres_restart_no_request_gets_a_503_once_postgres_answers(
    own_postgres, own_redis, tmp_path, tally, alice
):
    token = Token.objects.create(user=alice).key
    db = settings.DATABASES["default"]
    own_postgres.copy_database(f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}")
    webs = {
        "pooled": {"GENIUS_DB_POOL": "1"},
        "kept": {"DJANGO_CONN_MAX_AGE": "600"},
    }
    stacks = {}
    try:
        for name, env in webs.items():
            (tmp_path / name).mkdir()
            stacks[name] = Stack(
                redis=own_redis,
                database_url=own_postgres.url(),
                logdir=tmp_path / name,
                web_env=env,
                with_worker=False,
            )
            stacks[name].start()
        headers = {"Authorization": f"Token {token}"}

        def ask(stack: Stack, n: int) -> int:
            if n % 3 == 2:
                body = {"round": 0, "payload": {"number": n % 11}}
                url = f"{stack.url}/api/games/{tally.id}/submission/"
                return requests.post(url, json=body, headers=headers, timeout=TIMEOUT).status_code
            url = f"{stack.url}/api/games/{tally.id}/"
            return requests.get(url, headers=headers, timeout=TIMEOUT).status_code

        for stack in stacks.values():  # every worker has its connections open (the pool its minimum)
            assert {ask(stack, n) for n in range(24)} == {200, 201}

        own_postgres.restart()
        wait_until(own_postgres.answers, "the restarted Postgres answering")

        answers = {name: [ask(stack, n) for n in range(30)] for name, stack in stacks.items()}
        failed = {name: [s for s in codes if s >= 500] for name, codes in answers.items()}
        assert failed == {"pooled": [], "kept": []}, answers
    finally:
        for stack in stacks.values():
            stack.stop()
    with psycopg.connect(own_postgres.url()) as conn:  # the saves after the restart are in the cluster
        saved = conn.execute("SELECT count(*) FROM platform_submission").fetchone()[0]
    assert saved == 2 * (8 + 10)
