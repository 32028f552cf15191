"""A GraphQL API from strawberry-graphql on uvicorn (both from PyPI, pinned in scripts/install-deps.sh): a server
nobody here wrote, for GraphQLTests. Run with
`python3 -m uvicorn --app-dir Tests/IntegrationTests/Fixtures strawberry_app:app --port PORT`.

Query.user(id): a user (id 1 and 2), null with an error "user N not found" at path ["user"] for another id;
Query.users: both; Query.hello(name): "hello NAME"; GET is allowed for queries (strawberry's default).
"""

from typing import List, Optional

import strawberry
from strawberry.asgi import GraphQL


@strawberry.type
class User:
    id: int
    name: str


USERS = {1: User(id=1, name="ada"), 2: User(id=2, name="grace")}


@strawberry.type
class Query:
    @strawberry.field
    def user(self, id: int) -> Optional[User]:
        if id not in USERS:
            raise ValueError(f"user {id} not found")
        return USERS[id]

    @strawberry.field
    def users(self) -> List[User]:
        return list(USERS.values())

    @strawberry.field
    def hello(self, name: str = "world") -> str:
        return f"hello {name}"


app = GraphQL(strawberry.Schema(query=Query))
