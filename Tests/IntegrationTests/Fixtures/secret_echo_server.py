#!/usr/bin/env python3
"""An HTTP/1.1 server for apitest's secret-containment tests (standard library only).

Prints "secret-echo-server listening on <port>" once ready. Paths:
  /token-echo         an OAuth2 token endpoint that refuses every client (401 invalid_client) and echoes in its
                      error_description the Authorization header, the body, and the body in base64
  /token-form         a token endpoint that answers 200 with a form-encoded body (access_token=form-tok-...&
                      token_type=bearer), which is no usable answer (RFC 6749 wants JSON)
  /token-id           a token endpoint that answers 200 JSON with an access_token and an id_token
  /redirect?code=N&to=URL  answer N (301, 302, 303, 307 or 308) with Location: URL (the rest of the query after
                      to=, as is)
  anything else       200 {"method": ..., "path": ..., "headers": {...}, "body": ...}
Every request is appended to the file named by --log (if given) as one JSON line {"method", "path", "headers"
(names lowercased), "body"}, so tests can see what each server was sent.
"""
import argparse
import base64
import json
import socketserver


class Handler(socketserver.StreamRequestHandler):
    def read_request(self):
        lines = []
        while True:
            line = self.rfile.readline(65536)
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                break
            lines.append(line.decode("latin-1").rstrip("\r\n"))
        if not lines:
            return None
        headers = {}
        for h in lines[1:]:
            if ":" in h:
                k, v = h.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        length = int(headers.get("content-length", "0") or 0)
        body = self.rfile.read(length) if length else b""
        parts = lines[0].split(" ")
        return {
            "method": parts[0],
            "path": parts[1] if len(parts) > 1 else "/",
            "headers": headers,
            "body": body.decode("latin-1"),
        }

    def send(self, status, body, extra=b""):
        data = body.encode()
        self.wfile.write(
            b"HTTP/1.1 " + status.encode() + b"\r\nContent-Type: application/json\r\nContent-Length: "
            + str(len(data)).encode() + b"\r\n" + extra + b"\r\n" + data
        )
        self.wfile.flush()

    def handle(self):
        while True:
            request = self.read_request()
            if request is None:
                return
            if self.server.log:
                with open(self.server.log, "a") as f:
                    f.write(json.dumps(request) + "\n")
            target = request["path"]
            if target == "/token-echo":
                body = request["body"]
                echo = "auth=%s body=%s b64body=%s" % (
                    request["headers"].get("authorization", ""),
                    body,
                    base64.b64encode(body.encode("latin-1")).decode(),
                )
                self.send("401 Unauthorized", json.dumps({"error": "invalid_client", "error_description": echo}))
                continue
            if target == "/token-form":
                self.send("200 OK", "access_token=form-tok-5f3a9c1e77&token_type=bearer&expires_in=3600")
                continue
            if target == "/token-id":
                self.send(
                    "200 OK",
                    json.dumps({"access_token": "acc-tok-8d2e4b6a19", "id_token": "id-tok-3c7f1a9e52",
                                "token_type": "Bearer", "expires_in": 3600}))
                continue
            if target.startswith("/redirect?"):
                query = target.split("?", 1)[1]
                code = query.split("code=", 1)[1].split("&", 1)[0]
                location = query.split("to=", 1)[1]
                reason = {"301": "Moved", "302": "Found", "303": "See Other", "307": "Temporary", "308": "Permanent"}
                self.send(
                    code + " " + reason.get(code, "Redirect"), "{}", b"Location: " + location.encode() + b"\r\n")
                continue
            self.send("200 OK", json.dumps(request))


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log")
    args = parser.parse_args()
    server = Server(("127.0.0.1", args.port), Handler)
    server.log = args.log
    print(f"secret-echo-server listening on {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
