"""A small FastAPI service with seeded faults for bench/fuzz (issue 39): a library of books.

Run it with uvicorn (bench/fuzz/run does):  python -m uvicorn books_service:app --app-dir bench/fuzz --port 8000
Its OpenAPI document is FastAPI's own, served at /openapi.json. With BOOKS_FAULTS=none in the environment the
service is clean and answers as that document says; by default (BOOKS_FAULTS=all) each fault in FAULTS below breaks
it once, for the input named there (bench/fuzz/README.md has the table of faults and the checks that find them).
Pinned beside it: fastapi==0.163.2, uvicorn==0.54.0 (bench/fuzz/run --install).
"""

import os
from typing import Optional

from fastapi import FastAPI, Query, Request, Response, Security
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.security import APIKeyHeader
from pydantic import BaseModel, Field, field_validator
from starlette.routing import Match

# The seeded faults: name -> (the check that should find it, what the service does wrong).
FAULTS = {
    "server-error": ("not_a_server_error", "GET /books?limit=0 divides by the limit: 500"),
    "undeclared-status": ("status_code_conformance", "POST /books with a title already in the library: 409"),
    "content-type": ("content_type_conformance", "GET /books/{id} of an absent book: 404 as text/plain"),
    "response-schema": ("response_schema_conformance", "GET /books lists each year as a string"),
    "invalid-accepted": ("negative_data_rejection", "POST /books: a title over the documented 100 characters: 201, cut"),
    "valid-rejected": ("positive_data_acceptance", "GET /books?limit=100, the documented maximum: 422"),
    "use-after-delete": ("use_after_free", "DELETE /books/{id}: 204, but GET still finds the book"),
    "created-unavailable": ("ensure_resource_availability", "POST /books without an isbn: 201, never stored"),
    "unsupported-method": ("unsupported_method", "PUT /books: 200 (a route the document does not declare)"),
    "ignored-auth": ("ignored_auth", "DELETE /books/{id} without X-API-Key: 204"),
}

_setting = os.environ.get("BOOKS_FAULTS", "all")
ACTIVE = set(FAULTS) if _setting == "all" else set() if _setting == "none" else set(_setting.split(","))
unknown = ACTIVE - set(FAULTS)
if unknown:
    raise SystemExit(f"books_service: unknown fault(s) in BOOKS_FAULTS: {', '.join(sorted(unknown))}")

API_KEY = "books-key"

app = FastAPI(title="Books (bench/fuzz)", version="1.0.0", description="A library of books with seeded faults.")
api_key = APIKeyHeader(name="X-API-Key", auto_error=False)


class BookIn(BaseModel):
    """A new book. `title`'s maxLength is declared; checking it is the service's job (fault invalid-accepted)."""

    title: str = Field(min_length=1, json_schema_extra={"maxLength": 100})
    year: int = Field(ge=0, le=2100)
    isbn: Optional[str] = Field(default=None, min_length=10, max_length=17)

    @field_validator("year", mode="before")
    @classmethod
    def _json_integer(cls, value):
        """A JSON integer (2.0 is one), not pydantic's lax reading of `true` or `"1965"`."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError("year must be an integer")
        if isinstance(value, float) and not value.is_integer():
            raise ValueError("year must be an integer")
        return int(value)


class Book(BookIn):
    id: int


class ErrorOut(BaseModel):
    detail: str


def _unprocessable(field: str, message: str) -> JSONResponse:
    """A 422 in FastAPI's own `HTTPValidationError` shape, which the document declares."""
    return JSONResponse({"detail": [{"loc": [field], "msg": message, "type": "value_error"}]}, status_code=422)


@app.middleware("http")
async def _allow_every_method(request: Request, call_next):
    """A 405's `Allow` names every method of the path: Starlette's names only the first matching route's."""
    response = await call_next(request)
    if response.status_code == 405:
        methods: set[str] = set()
        for route in app.routes:
            match, _ = route.matches(request.scope)
            if match != Match.NONE:
                methods |= getattr(route, "methods", None) or set()
        response.headers["Allow"] = ", ".join(sorted(methods))
    return response


books: dict[int, dict] = {}
deleted: dict[int, dict] = {}
next_id = 1


def _add(title: str, year: int, isbn: Optional[str]) -> dict:
    global next_id
    book = {"id": next_id, "title": title, "year": year, "isbn": isbn}
    next_id += 1
    books[book["id"]] = book
    return book


for _title, _year, _isbn in [
    ("Dune", 1965, "978-0441013593"),
    ("Neuromancer", 1984, "978-0441569595"),
    ("Solaris", 1961, None),
]:
    _add(_title, _year, _isbn)


def _listed(book: dict) -> dict:
    if "response-schema" in ACTIVE:
        return {**book, "year": str(book["year"])}
    return book


@app.get("/books", response_model=list[Book], operation_id="listBooks")
def list_books(limit: int = Query(10, ge=0, le=100), title: Optional[str] = Query(None, max_length=100)):
    """The books in id order, at most `limit`, optionally only those whose title contains `title`."""
    if "valid-rejected" in ACTIVE and limit >= 100:
        return _unprocessable("limit", "limit must be below 100")
    matching = [book for book in books.values() if title is None or title in book["title"]]
    if "server-error" in ACTIVE:
        pages = len(matching) // limit  # ZeroDivisionError for limit=0: FastAPI answers 500
        del pages
    return JSONResponse([_listed(book) for book in matching[:limit]])


if "unsupported-method" in ACTIVE:

    @app.put("/books", include_in_schema=False)
    def put_books():
        return JSONResponse([_listed(book) for book in books.values()])


@app.post(
    "/books",
    response_model=Book,
    status_code=201,
    operation_id="addBook",
    responses={
        201: {"headers": {"Location": {"schema": {"type": "string"}, "description": "the new book"}}},
        400: {"model": ErrorOut, "description": "a body that is not JSON (FastAPI's own answer)"},
    },
)
def add_book(new: BookIn, response: Response):
    """Adds a book; titles need not be unique."""
    if len(new.title) > 100:
        if "invalid-accepted" not in ACTIVE:
            return _unprocessable("title", "title is longer than 100 characters")
        new.title = new.title[:100]
    if "undeclared-status" in ACTIVE and any(book["title"] == new.title for book in books.values()):
        return JSONResponse({"detail": f"a book titled {new.title!r} exists"}, status_code=409)
    if "created-unavailable" in ACTIVE and new.isbn is None:
        global next_id
        book = {"id": next_id, "title": new.title, "year": new.year, "isbn": None}
        next_id += 1
    else:
        book = _add(new.title, new.year, new.isbn)
    response.headers["Location"] = f"/books/{book['id']}"
    return book


@app.get("/books/{book_id}", response_model=Book, operation_id="getBook", responses={404: {"model": ErrorOut}})
def get_book(book_id: int):
    """One book."""
    book = books.get(book_id)
    if book is None and "use-after-delete" in ACTIVE:
        book = deleted.get(book_id)
    if book is None:
        if "content-type" in ACTIVE:
            return PlainTextResponse(f"book {book_id} not found", status_code=404)
        return JSONResponse({"detail": f"book {book_id} not found"}, status_code=404)
    return book


@app.delete(
    "/books/{book_id}",
    status_code=204,
    operation_id="deleteBook",
    responses={401: {"model": ErrorOut}, 404: {"model": ErrorOut}},
)
def delete_book(book_id: int, key: Optional[str] = Security(api_key)):
    """Removes a book; needs the header X-API-Key: books-key."""
    if "ignored-auth" not in ACTIVE and key != API_KEY:
        return JSONResponse({"detail": "a valid X-API-Key is required"}, status_code=401)
    book = books.pop(book_id, None)
    if book is None:
        return JSONResponse({"detail": f"book {book_id} not found"}, status_code=404)
    deleted[book_id] = book
    return Response(status_code=204)

