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


def run_site(script: str = ASK, **env) -> subprocess.CompletedProcess:
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "GENIUS_BEHIND", "GENIUS_PROXY", "GENIUS_SITE_URL"))
    }
    base.update({"DJANGO_SETTINGS_MODULE": "genius.settings", "GENIUS_PRODUCTION": "1"})
    base.update({"DJANGO_ALLOWED_HOSTS": "testserver", **env})
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=base, capture_output=True, text=True, timeout=120
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
def test_the_compose_stack_refuses_to_start_without_a_secret_key_or_its_host_names():
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS")}
    config = ["docker-compose", "-f", str(ROOT / "docker-compose.yml"), "config", "-q"]
    hosts = {"DJANGO_ALLOWED_HOSTS": "genius.example.org"}
    refused = subprocess.run(config, env={**env, **hosts}, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "DJANGO_SECRET_KEY" in refused.stderr
    key = {"DJANGO_SECRET_KEY": GOOD_KEY}
    nameless = subprocess.run(config, env={**env, **key}, capture_output=True, text=True, timeout=60)
    assert nameless.returncode != 0 and "DJANGO_ALLOWED_HOSTS" in nameless.stderr
    given = subprocess.run(config, env={**env, **key, **hosts}, capture_output=True, timeout=60)
    assert given.returncode == 0


# -- issue 28, N5: no default host names in production, and emails link to GENIUS_SITE_URL ---------------


@pytest.mark.parametrize("hosts", ["", " , "])
def test_production_refuses_to_start_without_its_host_names(hosts):
    started = run_site(DJANGO_SECRET_KEY=GOOD_KEY, DJANGO_ALLOWED_HOSTS=hosts)
    assert started.returncode != 0
    assert "Set DJANGO_ALLOWED_HOSTS to the names the site is reached by" in started.stderr


SITE_URL = "import django; django.setup(); from django.conf import settings; print(settings.GENIUS_SITE_URL)"


def test_production_links_emails_to_its_first_host_name_unless_told_otherwise():
    hosts = "genius.example.org,www.genius.example.org"
    named = run_site(SITE_URL, DJANGO_SECRET_KEY=GOOD_KEY, DJANGO_ALLOWED_HOSTS=hosts)
    assert named.stdout.strip() == "https://genius.example.org", named.stderr
    told = run_site(
        SITE_URL, DJANGO_SECRET_KEY=GOOD_KEY, DJANGO_ALLOWED_HOSTS=hosts, GENIUS_SITE_URL="https://g.example/"
    )
    assert told.stdout.strip() == "https://g.example"
    pattern = run_site(SITE_URL, DJANGO_SECRET_KEY=GOOD_KEY, DJANGO_ALLOWED_HOSTS=".example.org")
    assert pattern.returncode != 0 and "Set GENIUS_SITE_URL" in pattern.stderr
