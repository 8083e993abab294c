"""A local HTTP server that serves a folder like UCI's download area, and can misbehave.

Used by ``tests/test_datasets.py`` to test the downloader offline but for real: requests go
through sockets to 127.0.0.1, and the server can corrupt, truncate, refuse, fail or stall.

    with MirrorServer(folder) as server:
        server.corrupt = True
        fetch("zoo", mirror=server.url, data_home=tmp)

Every misbehaviour is an attribute that a test sets before fetching:

``corrupt``      change one value character in the middle of the body (same length);
``truncate``     send only the first half of the body, with the full Content-Length
                 (``truncate="no-length"`` omits Content-Length, so only the checksum notices);
``crlf``         serve the file with CRLF line endings (an honest mirror on another OS);
``status_plan``  statuses to answer first, one per request, before serving normally
                 (``[500]``: one failure then success);
``always_status`` answer every request with this status (404, 503, ...);
``stall``        seconds to wait before answering (cut short when the server stops);
``hold_until``   wait (up to 5 s) until this many requests are in flight before answering,
                 so that concurrent clients really overlap.

``requests`` lists the paths requested, in order.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def corrupt_one_byte(body: bytes) -> bytes:
    """Change the first letter or digit at or after the middle into another one."""
    for i in range(len(body) // 2, len(body)):
        c = body[i : i + 1]
        if c.isalnum():
            new = b"1" if c == b"0" else (b"0" if c.isdigit() else (b"a" if c != b"a" else b"b"))
            return body[:i] + new + body[i + 1 :]
    raise ValueError("no letter or digit to corrupt")


class MirrorServer:
    """Serve ``root`` on 127.0.0.1 (a free port) in a background thread."""

    def __init__(self, root):
        self.root = Path(root)
        self.corrupt = False
        self.truncate = False
        self.crlf = False
        self.status_plan: list[int] = []
        self.always_status: int | None = None
        self.stall = 0.0
        self.hold_until = 0
        self.requests: list[str] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._barrier: threading.Barrier | None = None
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> MirrorServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._barrier is not None:
            self._barrier.abort()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> MirrorServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # ----------------------------------------------------------------- request handling
    def _respond(self, handler: BaseHTTPRequestHandler) -> None:
        with self._lock:
            self.requests.append(handler.path)
            planned = self.status_plan.pop(0) if self.status_plan else None
            if self.hold_until and self._barrier is None:
                self._barrier = threading.Barrier(self.hold_until, timeout=5)
            barrier = self._barrier
        if barrier is not None:
            try:
                barrier.wait()
            except threading.BrokenBarrierError:
                pass
        if self.stall and self._stopping.wait(self.stall):
            return
        status = planned or self.always_status
        if status and status != 200:
            body = f"status {status} from the test mirror\n".encode()
            handler.send_response(status)
            handler.send_header("Content-Type", "text/plain")
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)
            return
        path = (self.root / handler.path.lstrip("/")).resolve()
        if self.root.resolve() not in path.parents or not path.is_file():
            handler.send_error(404, "not in the test mirror")
            return
        body = path.read_bytes()
        if self.crlf:
            body = body.replace(b"\n", b"\r\n")
        if self.corrupt:
            body = corrupt_one_byte(body)
        length = len(body)
        if self.truncate:
            body = body[: len(body) // 2]
        handler.send_response(200)
        handler.send_header("Content-Type", "application/octet-stream")
        if self.truncate != "no-length":
            handler.send_header("Content-Length", str(length))
        handler.end_headers()
        try:
            handler.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout); nothing to do

    def _handler_class(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            # HTTP/1.0: the connection closes after each response, which is how a short
            # body becomes visible to the client.
            protocol_version = "HTTP/1.0"

            def do_GET(self):  # noqa: N802 (http.server's naming)
                server._respond(self)

            def log_message(self, format, *args):  # keep test output clean
                pass

        return Handler
