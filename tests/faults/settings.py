"""The site's settings for the fault suite's live stack, with two routes that fail on purpose."""

from genius.settings import *  # noqa: F403

ROOT_URLCONF = "tests.platform.failing_urls"
# The tests' users are made with the fast hasher (tests/conftest.py): the live site must read it.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
