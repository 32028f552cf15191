#!/usr/bin/env python3
"""A notes collection with two seeded stateful faults, for the tests of how `apitest fuzz` shrinks a finding of its
stateful phase (standard library only). Prints "stateful-notes listening on <port>" once ready. Nothing exists at
start; ids start at 1000.
  POST /notes       {"title": 1-N chars, "text"?: string, "tags"?: [string]}: 201 with the note and a Location
                    /notes/N; 422 otherwise; 409 for a title a note had before (titles are never reused, so a
                    re-run of a creation is refused).
  GET /notes/N      200 the note; 404 for no such note. Fault: a deleted note is still found (use after delete).
  PUT /notes/N      404 for no such note. Fault: a body with a "title" member is a 500 (a server error that needs
                    the note to exist, and nothing of the body but the title). Otherwise 200 with the note.
  DELETE /notes/N   204, or 404.
--fixed: no fault (the API once fixed). --flaky: the 500 only for the first PUT the server gets.
--log PATH is accepted and each request line appended to it.
"""
import json
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from stateful_rest import JSONHandler, start  # noqa: E402 (beside this file)

notes = {}
deleted = {}
titles = set()
next_id = [1000]
puts = [0]
options = None


def problem(value, creating):
    """What is wrong with a note's body, or None."""
    if not isinstance(value, dict):
        return "an object is required"
    title = value.get("title")
    if creating and (not isinstance(title, str) or len(title) < 1):
        return "title must be a non-empty string"
    if "text" in value and not isinstance(value["text"], str):
        return "text must be a string"
    tags = value.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(tag, str) for tag in tags):
        return "tags must be a list of strings"
    return None


class Handler(JSONHandler):
    def route(self, parts, body):
        if not parts or parts[0] != "notes":
            return self.answer(404, {"detail": "no such route"})
        if len(parts) == 1 and self.command == "POST":
            try:
                value = json.loads(body)
            except ValueError:
                return self.answer(422, {"detail": "the body is not JSON"})
            wrong = problem(value, True)
            if wrong:
                return self.answer(422, {"detail": wrong})
            if value["title"] in titles:
                return self.answer(409, {"detail": "a note was titled so before"})
            titles.add(value["title"])
            note = {"id": next_id[0], "title": value["title"], "text": value.get("text", ""),
                    "tags": value.get("tags", [])}
            next_id[0] += 1
            notes[note["id"]] = note
            return self.answer(201, note, [("Location", f"/notes/{note['id']}")])
        if len(parts) == 2 and self.command in ("GET", "PUT", "DELETE"):
            try:
                number = int(parts[1])
            except ValueError:
                return self.answer(422, {"detail": "the id must be an integer"})
            if self.command == "GET" and not options.fixed and number in deleted:
                return self.answer(200, deleted[number])
            if number not in notes:
                return self.answer(404, {"detail": "no such note"})
            if self.command == "GET":
                return self.answer(200, notes[number])
            if self.command == "DELETE":
                deleted[number] = notes.pop(number)
                return self.answer(204)
            try:
                value = json.loads(body)
            except ValueError:
                return self.answer(422, {"detail": "the body is not JSON"})
            puts[0] += 1
            faulty = not options.fixed and (not options.flaky or puts[0] == 1)
            if faulty and isinstance(value, dict) and "title" in value:
                return self.answer(500, {"detail": "title index corrupted"})
            wrong = problem(value, False)
            if wrong:
                return self.answer(422, {"detail": wrong})
            notes[number].update(value)
            return self.answer(200, notes[number])
        return self.answer(405, {"detail": "method not allowed"}, [("Allow", "GET, PUT, DELETE")])


def main():
    global options
    server, options = start("stateful-notes", Handler, ["--fixed", "--flaky"])
    server.serve_forever()


if __name__ == "__main__":
    main()
