#!/usr/bin/env python3
"""A pet store whose writes change what its reads return, for the tests of generated suites' order (standard
library only). Prints "stateful-pets listening on <port>" once ready. Pet 1 exists at start. Reads wait 0.3 s before
they look, so a write sent at the same time lands first:
  GET /pets            200 the list (every pet must have an id: a pet POST stored has none)
  GET /pets/1          200 the pet (PUT and PATCH store {}, which lacks id and name); 404 once deleted
  POST /pets           201 {"id": 2, "name": ...}, but the stored pet has no id
  PUT, PATCH /pets/N   204, the pet is now {}; 404 for no such pet
  DELETE /pets/N       204; 404 for no such pet
--log PATH is accepted and each request line appended to it.
"""
import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

pets = {1: {"id": 1, "name": "Rex"}}
lock = threading.Lock()
log_path = None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, value=None):
        body = b"" if value is None else json.dumps(value).encode()
        self.send_response(status)
        if value is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        if log_path:
            with lock, open(log_path, "a") as log:
                log.write(self.requestline + "\n")
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        parts = [p for p in self.path.split("?")[0].split("/") if p]
        if self.command == "GET":
            time.sleep(0.3)
        with lock:
            if parts == ["pets"] and self.command == "GET":
                return self.answer(200, list(pets.values()))
            if parts == ["pets"] and self.command == "POST":
                sent = json.loads(body or b"{}")
                pets[2] = {"name": sent.get("name", "x")}
                return self.answer(201, {"id": 2, "name": pets[2]["name"]})
            if len(parts) == 2 and parts[0] == "pets" and parts[1].isdigit():
                key = int(parts[1])
                if key not in pets:
                    return self.answer(404, {"error": "no such pet"})
                if self.command == "GET":
                    return self.answer(200, pets[key])
                if self.command in ("PUT", "PATCH"):
                    pets[key] = {}
                    return self.answer(204)
                if self.command == "DELETE":
                    del pets[key]
                    return self.answer(204)
            return self.answer(404, {"error": "not found"})

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any


def main():
    global log_path
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log")
    arguments = parser.parse_args()
    log_path = arguments.log
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    print(f"stateful-pets listening on {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
