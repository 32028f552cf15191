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
import json
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from stateful_rest import JSONHandler, start  # noqa: E402 (beside this file)

items = {"books": {}, "papers": {}}
deleted_books = {}
next_id = [1000]


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


class Handler(JSONHandler):
    def unprocessable(self, message):
        return self.answer(422, {"detail": [{"loc": ["body"], "msg": message, "type": "value_error"}]})

    def route(self, parts, body):
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


def main():
    server, _ = start("stateful-books", Handler)
    server.serve_forever()


if __name__ == "__main__":
    main()
