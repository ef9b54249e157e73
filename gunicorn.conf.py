"""gunicorn's settings for the site, read by the Docker image, docker-compose and the benchmark.

Sync workers, as many as gunicorn's own advice for a CPU-bound Django site: two per core, plus one (a worker
waiting on Postgres or Redis leaves its core to another). GUNICORN_WORKERS overrides it.
"""

import multiprocessing
import os

workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
timeout = 60
