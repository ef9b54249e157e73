"""What the site's email and webhooks reach in the fault suite: a local SMTP server and a local webhook
receiver, each recording every call it gets, so a test counts what was lost and what came twice."""

from __future__ import annotations

import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Mail:
    to: str
    subject: str
    message_id: str


class MailStandIn:
    """Just enough SMTP to take emails; each taken one recorded with its To, Subject and Message-ID.
    `delay`: seconds it waits before taking each email (a slow mail server, so sends overlap)."""

    def __init__(self):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.port = self.server.getsockname()[1]
        self.delay = 0.0
        self.received: list[Mail] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                peer, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._talk, args=(peer,), daemon=True).start()

    def _talk(self, peer):
        reader = peer.makefile("rb")
        peer.sendall(b"220 stand-in\r\n")
        data = None
        for raw in reader:
            line = raw.decode(errors="replace").rstrip("\r\n")
            if data is not None:
                if line == ".":
                    time.sleep(self.delay)
                    self._take(data)
                    data = None
                    peer.sendall(b"250 ok\r\n")
                else:
                    data.append(line)
            elif line.upper().startswith("DATA"):
                data = []
                peer.sendall(b"354 go on\r\n")
            elif line.upper().startswith("QUIT"):
                peer.sendall(b"221 bye\r\n")
                break
            else:
                peer.sendall(b"250 ok\r\n")
        peer.close()

    def _take(self, lines: list[str]) -> None:
        headers = {}
        for line in lines:
            if not line:
                break
            name, _, value = line.partition(":")
            headers.setdefault(name.strip().lower(), value.strip())
        with self._lock:
            self.received.append(
                Mail(headers.get("to", ""), headers.get("subject", ""), headers.get("message-id", ""))
            )

    def duplicated(self) -> dict:
        """Each (to, subject) that came more than once, with its count."""
        counts = Counter((m.to, m.subject) for m in self.received)
        return {mail: n for mail, n in counts.items() if n > 1}

    def got(self) -> set[tuple[str, str]]:
        return {(m.to, m.subject) for m in self.received}

    def reset(self):
        with self._lock:
            self.received, self.delay = [], 0.0

    def close(self):
        self.server.close()


@dataclass
class Post:
    path: str
    event: str
    key: str
    status: int


@dataclass
class Script:
    """How one webhook path answers: these statuses first (then 204), each after holding it `hold` s."""

    statuses: list[int] = field(default_factory=list)
    hold: float = 0.0


class WebhookStandIn:
    """A webhook receiver on this machine: every post recorded (path, event ref, Idempotency-Key, the status
    it was answered), and answered as its path's `Script` says. `started` counts posts still being held."""

    def __init__(self):
        stand_in = self
        self.posts: list[Post] = []
        self.scripts: dict[str, Script] = {}
        self.started: list[str] = []
        self._lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                script = stand_in.scripts.setdefault(self.path, Script())
                with stand_in._lock:
                    stand_in.started.append(self.path)
                    status = script.statuses.pop(0) if script.statuses else 204
                time.sleep(script.hold)
                with stand_in._lock:
                    stand_in.posts.append(
                        Post(
                            self.path,
                            self.headers.get("X-Genius-Event", ""),
                            self.headers.get("Idempotency-Key", ""),
                            status,
                        )
                    )
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def taken(self) -> Counter:
        """How many times each (path, event) was taken (answered 2xx)."""
        return Counter((p.path, p.event) for p in self.posts if p.status < 300)

    def reset(self):
        with self._lock:
            self.posts, self.scripts, self.started = [], {}, []

    def close(self):
        self.server.shutdown()
