"""A GraphQL API from strawberry-graphql on uvicorn (both from PyPI, pinned in scripts/install-deps.sh): a server
nobody here wrote, for GraphQLTests. Run with
`python3 -m uvicorn --app-dir Tests/IntegrationTests/Fixtures strawberry_app:app --port PORT`.

Query.user(id): a user (id 1 and 2), null with an error "user N not found" at path ["user"] for another id;
Query.users: both; Query.hello(name): "hello NAME"; GET is allowed for queries (strawberry's default).

Subscriptions over WebSocket (graphql-transport-ws, strawberry's default protocols): Subscription.count(to, gap)
yields 0 .. to-1, `gap` seconds apart, then completes; Subscription.failing(after) yields `after` values, then
raises "boom after N"; Subscription.forever yields a value every 0.2 s until the client completes it;
Subscription.whoami yields the value of the `session` cookie of the upgrade (or "none").
"""

import asyncio
from typing import AsyncGenerator, List, Optional

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


@strawberry.type
class Subscription:
    @strawberry.subscription
    async def count(self, to: int = 3, gap: float = 0.0) -> AsyncGenerator[int, None]:
        for n in range(to):
            if gap:
                await asyncio.sleep(gap)
            yield n

    @strawberry.subscription
    async def failing(self, after: int = 1) -> AsyncGenerator[int, None]:
        for n in range(after):
            yield n
        raise ValueError(f"boom after {after}")

    @strawberry.subscription
    async def forever(self) -> AsyncGenerator[int, None]:
        n = 0
        while True:
            yield n
            n += 1
            await asyncio.sleep(0.2)

    @strawberry.subscription
    async def whoami(self, info: strawberry.Info) -> AsyncGenerator[str, None]:
        request = info.context["request"]
        yield request.cookies.get("session", "none")


app = GraphQL(strawberry.Schema(query=Query, subscription=Subscription))
