"""Server-Sent Events from sse-starlette on uvicorn (both from PyPI, pinned in scripts/install-deps.sh): a server
nobody here wrote, for EventStreamTests. Run with
`python3 -m uvicorn --app-dir Tests/IntegrationTests/Fixtures sse_starlette_app:app --port PORT`.

/ticks?count=N  N events `tick` (id n, data {"n": n}, the first with retry 2500), then `done` with data [DONE];
                then the stream stays open (only the client's `until` ends it). sse-starlette writes CRLF line ends
                and sends `: ping` comments.
/lines          one event whose data has three lines, and an event with neither type nor id.
"""

import asyncio
import json

from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.routing import Route


async def ticks(request):
    count = int(request.query_params.get("count", "5"))

    async def events():
        for n in range(count):
            yield ServerSentEvent(
                data=json.dumps({"n": n, "text": f"tick {n}"}), event="tick", id=str(n),
                retry=2500 if n == 0 else None)
        yield ServerSentEvent(data="[DONE]", event="done")
        await asyncio.sleep(3600)

    return EventSourceResponse(events(), ping=1)


async def lines(request):
    async def events():
        yield ServerSentEvent(data="first line\nsecond line\nthird line", event="poem")
        yield {"data": "plain"}

    return EventSourceResponse(events())


app = Starlette(routes=[Route("/ticks", ticks), Route("/lines", lines)])
