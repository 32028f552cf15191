#!/usr/bin/env python3
"""Two collections shaped like bench/fuzz's FastAPI books service, for the stateful tests of `apitest fuzz` (standard
library only). Prints "stateful-books listening on <port>" once ready. Nothing exists at start; ids start at 1000.
C is books (with the seeded faults) or papers (clean):
  POST /C          {"title": 1-100 chars, "year": 0-2100, "isbn"?: 10-17 chars or null}: 201 with the item and a
                   Location /C/N; 422 otherwise. books stores an item only when its isbn is a string (the
                   created-unavailable fault: 201, never stored).
  GET /C/N         200 the item; 404 for no such item. books still finds a deleted item (use-after-delete).
  DELETE /C/N      papers: 401 without X-API-Key: books-key; books does not check it (ignored-auth). Then 204, or 404.
--log PATH is accepted and each request line appended to it.
"""
import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

items = {"books": {}, "papers": {}}
deleted_books = {}
next_id = [1000]
lock = threading.Lock()
log_path = None


def problem(value):
    """What is wrong with a new item, or None."""
    if not isinstance(value, dict):
        return "an object is required"
    title, year, isbn = value.get("title"), value.get("year"), value.get("isbn")
    if not isinstance(title, str) or not 1 <= len(title) <= 100:
        return "title must be a string of 1 to 100 characters"
    if isinstance(year, bool) or not isinstance(year, int) or not 0 <= year <= 2100:
        return "year must be an integer from 0 to 2100"
    if isbn is not None and (not isinstance(isbn, str) or not 10 <= len(isbn) <= 17):
        return "isbn must be null or a string of 10 to 17 characters"
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

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

    def unprocessable(self, message):
        return self.answer(422, {"detail": [{"loc": ["body"], "msg": message, "type": "value_error"}]})

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
                return self.answer(404, {"detail": "no such route"})
            faulty = parts[0] == "books"
            if len(parts) == 1 and self.command == "POST":
                try:
                    value = json.loads(body)
                except ValueError:
                    return self.unprocessable("the body is not JSON")
                wrong = problem(value)
                if wrong:
                    return self.unprocessable(wrong)
                item = {"id": next_id[0], "title": value["title"], "year": value["year"], "isbn": value.get("isbn")}
                next_id[0] += 1
                if not faulty or item["isbn"] is not None:
                    collection[item["id"]] = item
                return self.answer(201, item, [("Location", f"/{parts[0]}/{item['id']}")])
            if len(parts) == 2 and self.command in ("GET", "DELETE"):
                try:
                    number = int(parts[1])
                except ValueError:
                    return self.unprocessable("the id must be an integer")
                if self.command == "DELETE" and not faulty and self.headers.get("X-API-Key") != "books-key":
                    return self.answer(401, {"detail": "a valid X-API-Key is required"})
                if self.command == "GET" and faulty and number in deleted_books:
                    return self.answer(200, deleted_books[number])
                if number not in collection:
                    return self.answer(404, {"detail": "no such item"})
                if self.command == "GET":
                    return self.answer(200, collection[number])
                if faulty:
                    deleted_books[number] = collection[number]
                del collection[number]
                return self.answer(204)
            return self.answer(405, {"detail": "method not allowed"}, [("Allow", "GET, POST, DELETE")])

    do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = handle_any


def main():
    global log_path
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log")
    arguments = parser.parse_args()
    log_path = arguments.log
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    print(f"stateful-books listening on {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
