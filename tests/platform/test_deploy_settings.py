"""Production settings and the compose file refuse what an attacker could use (issue 17.9, 17.14).

Each case starts the site's settings in a fresh interpreter with production's environment, and asks it
through Django's test client, since settings are read once per process.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOOD_KEY = "a-long-random-key-for-this-test-only-" + "k3Y9xQ2vLm8Pz" * 3

ASK = """
import json, django
django.setup()
from django.test import Client
answer = Client().get("/healthz/", headers={"x-forwarded-proto": "https"})
print(json.dumps({"status": answer.status_code, "location": answer.get("Location", "")}))
"""


def run_site(**env) -> subprocess.CompletedProcess:
    base = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "GENIUS_BEHIND", "GENIUS_PROXY"))
    }
    base.update(
        DJANGO_SETTINGS_MODULE="genius.settings",
        GENIUS_PRODUCTION="1",
        DJANGO_ALLOWED_HOSTS="testserver",
        **env,
    )
    return subprocess.run(
        [sys.executable, "-c", ASK], cwd=ROOT, env=base, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "key",
    [
        "",
        "change-me-to-a-long-random-string-before-production",
        "dev-only-insecure-key-" + "x" * 40,
        "django-insecure-" + "abcdefghij" * 5,
        "too-short-0123456789",
    ],
)
def test_production_refuses_a_missing_or_published_secret_key(key):
    started = run_site(DJANGO_SECRET_KEY=key)
    assert started.returncode != 0
    assert "DJANGO_SECRET_KEY" in started.stderr


def test_production_starts_with_a_secret_key_of_its_own():
    started = run_site(DJANGO_SECRET_KEY=GOOD_KEY, GENIUS_BEHIND_PROXY="1")
    assert started.returncode == 0, started.stderr
    assert json.loads(started.stdout)["status"] == 200


@pytest.mark.skipif(not shutil.which("docker-compose"), reason="docker-compose is not installed (CI has it)")
def test_the_compose_stack_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    config = ["docker-compose", "-f", str(ROOT / "docker-compose.yml"), "config", "-q"]
    refused = subprocess.run(config, env=env, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "DJANGO_SECRET_KEY" in refused.stderr
    given = subprocess.run(
        config, env={**env, "DJANGO_SECRET_KEY": GOOD_KEY}, capture_output=True, timeout=60
    )
    assert given.returncode == 0


def test_x_forwarded_proto_is_not_believed_without_the_proxy():
    # gunicorn straight on the internet: a client's "I came over https" is its own word, and the SSL
    # redirect still sends plain http to https.
    direct = run_site(DJANGO_SECRET_KEY=GOOD_KEY)
    assert direct.returncode == 0, direct.stderr
    answer = json.loads(direct.stdout)
    assert answer["status"] == 301 and answer["location"].startswith("https://")
    behind = json.loads(run_site(DJANGO_SECRET_KEY=GOOD_KEY, GENIUS_BEHIND_PROXY="1").stdout)
    assert behind["status"] == 200, "behind the proxy, its header is believed"
