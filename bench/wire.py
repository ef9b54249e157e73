"""One HTTP/1.1 request on a connection of its own, with asyncio: the open-loop and live benchmarks' client.

gunicorn's sync workers close the connection after every answer, so a request is: connect, write, read the
head and the body (by Content-Length, or to the end), close. Written by hand on asyncio's streams because a
load driver that costs the two cores less leaves more of them to the site it measures.
"""

from __future__ import annotations

import asyncio
import json
import os

HOST = "127.0.0.1"


def request_bytes(method: str, path: str, headers: dict | None = None, body: bytes | None = None) -> bytes:
    """The request as sent: asked to close, with the body's length."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    if body is not None:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


async def send(port: int, raw: bytes, timeout: float = 30.0) -> tuple[int, dict, bytes]:
    """(status, headers with lower-case names, body) of one request."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), timeout)
    try:
        writer.write(raw)
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        headers = {}
        for line in header_lines:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), timeout)
        elif status in (204, 304):
            body = b""
        else:
            body = await asyncio.wait_for(reader.read(), timeout)
        return status, headers, body
    finally:
        writer.close()


async def call(port: int, method: str, path: str, headers=None, data=None) -> tuple[int, object]:
    """A JSON API call: (status, decoded answer or None)."""
    headers = dict(headers or {})
    body = None
    if data is not None:
        headers["Content-Type"] = "application/json"
        body = json.dumps(data).encode()
    status, _, answer = await send(port, request_bytes(method, path, headers, body))
    try:
        return status, json.loads(answer) if answer else None
    except ValueError:
        return status, None


def processes(roots: list[int]) -> list[int]:
    """The servers' processes: each root and its children (gunicorn's or uvicorn's workers)."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                raw = f.read()
        except OSError:  # ended between the listing and the reading
            continue
        ppid = int(raw[raw.rindex(")") + 2 :].split()[1])
        if int(entry.name) in roots or ppid in roots:
            found.append(int(entry.name))
    return found
