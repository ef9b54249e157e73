"""The fault suite's web process: the site, with one fault it injects on demand.

While the file named by GENIUS_FAULT_CRASH_FILE exists, a process dies (SIGKILL) the moment a commit's owed
tasks would be published: the crash between a commit and its enqueue (tests/faults/test_outbox.py). The
site's own code knows nothing of it.
"""

import os
import signal
from pathlib import Path

from genius.wsgi import application  # noqa: F401 - what gunicorn serves; it sets Django up

# isort: split
from games.platform import outbox

_crash_file = os.environ.get("GENIUS_FAULT_CRASH_FILE", "")
_publish_owed = outbox._publish_owed


def _dies_before_publishing(pk: int, name: str, args: list) -> None:
    if _crash_file and Path(_crash_file).exists():
        os.kill(os.getpid(), signal.SIGKILL)
    _publish_owed(pk, name, args)


outbox._publish_owed = _dies_before_publishing
