"""What the health checks say of a live stack as its parts go away (issue 28.6).

/readyz/ is about serving: 200 while Postgres answers, "degraded" with Redis stopped. /healthz/deep/ is about
the background: ok while the worker sweeps and answers, not ok within a few periods of it going away. The
hosts' admin index says deadlines are late. The worker's own check (`python genius/alive.py`) answers while
it runs.
"""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest
import requests

from tests.faults.stack import ROOT, wait_until
from tests.faults.test_redis_faults import TIMEOUT, browser

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]


def get(stack, path: str) -> requests.Response:
    return requests.get(f"{stack.url}{path}", timeout=TIMEOUT)


def test_readyz_follows_serving_and_the_deep_status_follows_the_worker(stack, tally, hank):
    wait_until(lambda: get(stack, "/healthz/deep/").json()["ok"], "the deep status ok", 60)
    ready = get(stack, "/readyz/")
    assert ready.status_code == 200 and ready.json()["status"] == "ok"
    node = f"celery@{socket.gethostname()}"  # the stack's worker, by Celery's default name
    check = [sys.executable, "genius/alive.py", node]  # as the compose health check runs it
    assert subprocess.run(check, cwd=ROOT, env=stack.env(), capture_output=True).returncode == 0

    stack.stop_worker()

    def both_late() -> bool:
        said = get(stack, "/healthz/deep/").json()
        return not said["ok"] and not said["deadlines"]["ok"] and not said["workers"]["ok"]

    wait_until(both_late, "the deep status saying the sweep and the workers are late", 30)
    assert get(stack, "/readyz/").status_code == 200  # pages and saves do not need the worker
    index = browser(stack, "hank").get(f"{stack.url}/admin/", timeout=TIMEOUT).text
    assert "Deadlines are late: the last sweep ran" in index and "Check the worker." in index

    stack.redis.stop()
    ready = get(stack, "/readyz/")
    assert ready.status_code == 200, ready.text
    assert ready.json()["status"] == "degraded" and ready.json()["redis"].startswith("down")
    assert get(stack, f"/games/{tally.id}/").status_code == 200
