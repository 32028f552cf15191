#!/usr/bin/env python3
"""WebSocket servers for the WebSocket tests, on 127.0.0.1; the first line printed ends with the port.

--mode echo       the `websockets` library (PyPI): /echo echoes, /greet says hello first, /headers sends the
                  upgrade's header fields as JSON, /auth wants `Authorization: Bearer s3cret`, /fragments sends a
                  fragmented message with pings between its fragments, /ticks sends five JSON messages then "done";
                  a text "close-me" is answered with the close code 4001 and the reason "asked". With --cert and
                  --key it serves wss.
--mode starlette  a Starlette app on uvicorn: /ws sends {"hello": "starlette"}, then echoes {"echo": text}; "bye"
                  closes with 1000 "bye". Cookies: GET /login sets session=abc123 (Path=/), scoped=1 (Path=/elsewhere)
                  and sec=1 (Secure); the WebSocket /cookies accepts with Set-Cookie ws_seen=yes (Path=/) and sends
                  {"cookie": the upgrade's Cookie field}; GET /whoami answers {"cookie": the request's Cookie field}.
--mode hostile    a raw server that completes (or botches) the handshake and then breaks RFC 6455, one way per path
                  (/masked, /badutf8, /bigcontrol, /rsv, /opcode, /toolarge, /abrupt, /fragmentedping, /badaccept,
                  /noupgrade, /silent); the close frame the client sends back is logged as "close <path> <code>".
"""
import argparse
import asyncio
import base64
import hashlib
import json
import ssl
import struct
import sys

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def log(path, line):
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")


# MARK: - websockets


async def run_echo(args):
    from websockets.asyncio.server import serve
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    def process_request(connection, request):
        if request.path == "/auth" and request.headers.get("Authorization") != "Bearer s3cret":
            return Response(401, "Unauthorized", Headers([("Content-Length", "0")]), b"")
        return None

    def select_subprotocol(connection, offered):
        # The first offered that the server speaks; none (not a refusal) when it speaks none of them.
        for name in offered:
            if name in ("chat", "superchat"):
                return name
        return None

    async def handler(ws):
        path = ws.request.path.split("?")[0]
        if path == "/greet":
            await ws.send(json.dumps({"type": "welcome", "id": 42}))
        elif path == "/headers":
            fields = {name.lower(): value for name, value in ws.request.headers.raw_items()}
            await ws.send(json.dumps(fields))
        elif path == "/fragments":

            async def parts():
                yield "Hel"
                await ws.ping(b"between-1")
                yield "lo, "
                await ws.ping(b"between-2")
                yield "fragments"

            await ws.send(parts())
            await ws.send(json.dumps({"after": "fragments"}))
        elif path == "/ticks":
            for number in range(1, 6):
                await ws.send(json.dumps({"n": number}))
            await ws.send("done")
        async for message in ws:
            if message == "close-me":
                await ws.close(4001, "asked")
                return
            await ws.send(message)

    context = None
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
    async with serve(
        handler, "127.0.0.1", args.port, select_subprotocol=select_subprotocol, process_request=process_request,
        ssl=context, compression=None,
    ) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"websockets echo server on port {port}", flush=True)
        await server.serve_forever()


# MARK: - Starlette


def run_starlette(args):
    import socket

    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute

    async def endpoint(websocket):
        await websocket.accept()
        await websocket.send_json({"hello": "starlette"})
        while True:
            text = await websocket.receive_text()
            if text == "bye":
                await websocket.close(code=1000, reason="bye")
                return
            await websocket.send_json({"echo": text})

    async def cookies(websocket):
        await websocket.accept(headers=[(b"set-cookie", b"ws_seen=yes; Path=/")])
        await websocket.send_json({"cookie": websocket.headers.get("cookie", "")})
        await websocket.close(code=1000)

    async def login(request):
        response = JSONResponse({"ok": True})
        response.set_cookie("session", "abc123", path="/")
        response.set_cookie("scoped", "1", path="/elsewhere")
        response.set_cookie("sec", "1", path="/", secure=True)
        return response

    async def whoami(request):
        return JSONResponse({"cookie": request.headers.get("cookie", "")})

    app = Starlette(
        routes=[
            WebSocketRoute("/ws", endpoint),
            WebSocketRoute("/cookies", cookies),
            Route("/login", login),
            Route("/whoami", whoami),
        ]
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    # Listening before the port is announced: a client that connects before uvicorn serves waits in the backlog
    # instead of being refused (CI met the refusal).
    sock.listen(128)
    port = sock.getsockname()[1]
    print(f"starlette websocket server on port {port}", flush=True)
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio", ws_per_message_deflate=False)
    uvicorn.Server(config).run(sockets=[sock])


# MARK: - Hostile


def frame(opcode, payload=b"", fin=True, rsv=0, mask=None, length=None):
    first = (0x80 if fin else 0) | (rsv << 4) | opcode
    count = len(payload) if length is None else length
    mask_bit = 0x80 if mask else 0
    if count <= 125:
        header = struct.pack("!BB", first, mask_bit | count)
    elif count <= 0xFFFF:
        header = struct.pack("!BBH", first, mask_bit | 126, count)
    else:
        header = struct.pack("!BBQ", first, mask_bit | 127, count)
    if mask:
        payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        return header + mask + payload
    return header + payload


HOSTILE = {
    "/masked": frame(0x1, b"hello", mask=b"\x37\xfa\x21\x3d"),
    "/badutf8": frame(0x1, b"\xc3\x28"),
    "/bigcontrol": frame(0x9, b"x" * 126),
    "/rsv": frame(0x1, b"hi", rsv=0b100),
    "/opcode": frame(0x3, b""),
    "/toolarge": frame(0x2, b"\x00" * 16, length=1 << 40),
    "/fragmentedping": frame(0x9, b"p", fin=False),
}


async def run_hostile(args):
    async def handle(reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except Exception:
            writer.close()
            return
        lines = head.decode("latin-1").split("\r\n")
        path = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "/"
        key = ""
        for line in lines[1:]:
            if line.lower().startswith("sec-websocket-key:"):
                key = line.split(":", 1)[1].strip()
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        if path == "/noupgrade":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nno")
            await writer.drain()
            writer.close()
            return
        if path == "/badaccept":
            accept = base64.b64encode(b"not the accept of the key").decode()
        writer.write(
            (
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Accept: {accept}\r\n\r\n"
            ).encode()
        )
        if path == "/abrupt":
            writer.write(frame(0x1, b"partial message")[:6])
            await writer.drain()
            writer.transport.abort()
            return
        if path in HOSTILE:
            writer.write(HOSTILE[path])
        await writer.drain()
        # The client's answer: its close frame (masked), logged with its code.
        try:
            data = await asyncio.wait_for(reader.read(1024), timeout=30)
            if len(data) >= 8 and data[0] & 0x0F == 0x8:
                mask = data[2:6]
                payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(data[6 : 6 + (data[1] & 0x7F)]))
                log(args.log, f"close {path} {struct.unpack('!H', payload[:2])[0]}")
            elif data:
                log(args.log, f"data {path} {data[:16].hex()}")
            if path == "/silent":
                await asyncio.sleep(30)
        except Exception:
            pass
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", args.port)
    port = server.sockets[0].getsockname()[1]
    print(f"hostile websocket server on port {port}", flush=True)
    async with server:
        await server.serve_forever()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["echo", "starlette", "hostile"], default="echo")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    args = parser.parse_args()
    if args.mode == "starlette":
        run_starlette(args)
    elif args.mode == "hostile":
        asyncio.run(run_hostile(args))
    else:
        asyncio.run(run_echo(args))


if __name__ == "__main__":
    sys.exit(main())
