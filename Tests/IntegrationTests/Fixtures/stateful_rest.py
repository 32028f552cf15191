"""The scaffolding the stateful REST fixtures share (stateful_notes.py, stateful_books.py; standard library only): a
handler of JSON requests that appends each request line to --log, reads the body and routes under one lock, and the
start-up that parses --port and --log (and a fixture's own flags), binds 127.0.0.1 and prints "<name> listening on
<port>" once listening. A fixture imports it from its own folder, which Python puts first on its path.
"""
import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class JSONHandler(BaseHTTPRequestHandler):
    """Answers every method through `route(parts, body)`, called under `lock` with the path's segments (no query)."""

    protocol_version = "HTTP/1.1"
    lock = threading.Lock()
    log_path = None

    def log_message(self, *args):
        pass

    def answer(self, status, value=None, headers=()):
        body = b"" if value is None else json.dumps(value).encode()
        self.send_response(status)
        if value is not None:
            self.send_header("Content-Type", "application/json")
        for name, text in headers:
            self.send_header(name, text)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def route(self, parts, body):
        raise NotImplementedError

    def handle_any(self):
        if self.log_path:
            with self.lock, open(self.log_path, "a") as log:
                log.write(self.requestline + "\n")
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        parts = [p for p in self.path.split("?")[0].split("/") if p]
        with self.lock:
            return self.route(parts, body)

    do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = handle_any


def start(name, handler, flags=()):
    """Parses --port, --log and `flags` (each a switch), binds `handler` on 127.0.0.1 and prints that `name` listens
    on its port; returns the server (to serve_forever) and the options."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log")
    for flag in flags:
        parser.add_argument(flag, action="store_true")
    options = parser.parse_args()
    handler.log_path = options.log
    server = ThreadingHTTPServer(("127.0.0.1", options.port), handler)
    print(f"{name} listening on {server.server_address[1]}", flush=True)
    return server, options
