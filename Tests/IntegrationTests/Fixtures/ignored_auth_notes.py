#!/usr/bin/env python3
"""Two collections, notes and memos, whose DELETEs are both declared behind an X-API-Key; the notes' does not check
it, and a deleted note can still be read. For the ignored_auth tests of `apitest fuzz` (standard library only). Prints "ignored-auth-notes listening on
<port>" once ready. Nothing exists at start; ids start at 1000, so a DELETE of an id the client makes up gets 404
(C is notes or memos):
  POST /C              201 {"id": N, "text": ...}; 400 when text is not a string
  GET /C/N             200 the item (a deleted note too); 404 for no such item
  DELETE /C/N          memos: 401 without the key `notes-key`; then 204, or 404 for no such item
--log PATH is accepted and each request line appended to it.
"""
import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

items = {"notes": {}, "memos": {}}
deleted_notes = {}
next_id = [1000]
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
        with lock:
            collection = items.get(parts[0]) if parts else None
            if collection is None:
                return self.answer(404, {"error": "no such route"})
            if len(parts) == 1 and self.command == "POST":
                try:
                    value = json.loads(body)
                except ValueError:
                    return self.answer(400, {"error": "not JSON"})
                if not isinstance(value, dict) or not isinstance(value.get("text"), str):
                    return self.answer(400, {"error": "text must be a string"})
                note = {"id": next_id[0], "text": value["text"]}
                next_id[0] += 1
                collection[note["id"]] = note
                return self.answer(201, note)
            if len(parts) == 2 and self.command in ("GET", "DELETE"):
                try:
                    number = int(parts[1])
                except ValueError:
                    return self.answer(400, {"error": "id must be an integer"})
                if self.command == "DELETE" and parts[0] == "memos" and self.headers.get("X-API-Key") != "notes-key":
                    return self.answer(401, {"error": "no key"})
                if self.command == "GET" and parts[0] == "notes" and number in deleted_notes:
                    return self.answer(200, deleted_notes[number])
                if number not in collection:
                    return self.answer(404, {"error": "no such item"})
                if self.command == "GET":
                    return self.answer(200, collection[number])
                if parts[0] == "notes":
                    deleted_notes[number] = collection[number]
                del collection[number]
                return self.answer(204)
            return self.answer(404, {"error": "no such route"})

    do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = handle_any


def main():
    global log_path
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log")
    arguments = parser.parse_args()
    log_path = arguments.log
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    print(f"ignored-auth-notes listening on {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
