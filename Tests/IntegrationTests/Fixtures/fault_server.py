#!/usr/bin/env python3
"""A deliberately misbehaving HTTP/1.1 server for apitest's transport tests (standard library only).

Prints "fault-server listening on <port>" once ready. Paths:
  /close            read the request, then close without answering (an empty reply)
  /reset            send half a status line, then reset the connection (RST)
  /interim          a 100 Continue, then the real 200 response
  /folded           a response with an obs-folded header line
  /repeat           three X-Repeat header lines and two Set-Cookie lines, in that order
  /stall            headers, then 1 byte, then nothing for 30 s
  /save?to=PATH     write the raw request body to PATH (and its Content-Type to PATH.type), answer {"bytes": N}
  /redirect307?to=PATH  read the body, then 307 to /save?to=PATH (the client must send the body again)
  /port[?sleep=S]   after S seconds, answer {"port": <the client's port>} (shows connection reuse)
  /bye              answer {"port": <the client's port>} with Connection: close, then close the connection
  /slow-sink        read the body 16 KiB (or ?chunk=N bytes) every 5 ms, answer {"bytes": N}
  /crlf-token       {"token": "..."} whose value holds CRLF and a whole second request (DELETE /admin/users)
  /forge            a JSON object whose member name holds line breaks and a fake pass line and summary, and whose
                    "items" list holds a name with a line break and a fake TAP line
  /token-slow-first an OAuth2 token endpoint whose first request is answered only after 20 s (then the connection
                    closes); every later one at once, with {"access_token": "token-<n>", "token_type": "Bearer"}
  /entities?n=N     an XML document whose one internal entity (&lol;) is referenced N times
  /hostile          a header and a JSON body holding ESC ] 0 ; title BEL, ESC [ 2 J, and a CR before a fake
                    "all passed" line, for terminal-escaping tests
  anything in absolute form (GET http://host/path): act as a proxy that answers itself, echoing the request line
  anything else     200 {"path": ...}
Every request line received is appended to the file named by --log (if given), so tests can see what was sent.
"""
import argparse
import json
import socket
import socketserver
import struct
import sys
import threading
import time


class Handler(socketserver.StreamRequestHandler):
    def read_request(self):
        lines = []
        while True:
            line = self.rfile.readline(65536)
            if not line:
                return None, []
            if line in (b"\r\n", b"\n"):
                break
            lines.append(line.decode("latin-1").rstrip("\r\n"))
        if not lines:
            return None, []
        headers = {}
        for h in lines[1:]:
            if ":" in h:
                k, v = h.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        length = int(headers.get("content-length", "0") or 0)
        self.content_type = headers.get("content-type", "")
        target = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "/"
        self.body_length = length
        if length and not (target.startswith("/save") or target.startswith("/slow-sink")):
            self.rfile.read(length)
        return lines[0], lines[1:]

    def send(self, status, body, extra=b""):
        data = body.encode()
        self.wfile.write(
            b"HTTP/1.1 " + status.encode() + b"\r\nContent-Type: application/json\r\nContent-Length: "
            + str(len(data)).encode() + b"\r\n" + extra + b"\r\n" + data
        )
        self.wfile.flush()

    def handle(self):
        while True:
            request_line, headers = self.read_request()
            if request_line is None:
                return
            if self.server.log:
                with open(self.server.log, "a") as f:
                    f.write(request_line + "\n")
            parts = request_line.split(" ")
            target = parts[1] if len(parts) > 1 else "/"
            if target.startswith("http://"):
                self.send("200 OK", json.dumps({"proxied": request_line, "headers": headers}))
                continue
            if target.startswith("/save"):
                path = target.split("to=", 1)[1]
                remaining = self.body_length
                with open(path, "wb") as f:
                    while remaining:
                        chunk = self.rfile.read(min(remaining, 1 << 20))
                        if not chunk:
                            return
                        f.write(chunk)
                        remaining -= len(chunk)
                with open(path + ".type", "w") as f:
                    f.write(self.content_type)
                self.send("200 OK", json.dumps({"bytes": self.body_length}))
                continue
            if target.startswith("/slow-sink"):
                size = int(target.split("chunk=", 1)[1]) if "chunk=" in target else 16384
                remaining = self.body_length
                while remaining:
                    chunk = self.rfile.read(min(remaining, size))
                    if not chunk:
                        return
                    remaining -= len(chunk)
                    time.sleep(0.005)
                self.send("200 OK", json.dumps({"bytes": self.body_length}))
                continue
            if target.startswith("/redirect307"):
                path = target.split("to=", 1)[1]
                self.wfile.write(
                    b"HTTP/1.1 307 Temporary Redirect\r\nLocation: /save?to=" + path.encode()
                    + b"\r\nContent-Length: 0\r\n\r\n")
                self.wfile.flush()
                continue
            if target == "/bye":
                self.send("200 OK", json.dumps({"port": self.client_address[1]}), b"Connection: close\r\n")
                return
            if target.startswith("/port"):
                if "sleep=" in target:
                    time.sleep(float(target.split("sleep=", 1)[1]))
                self.send("200 OK", json.dumps({"port": self.client_address[1]}))
                continue
            if target == "/forge":
                forged = "x\n✔ forge › all good (1 ms)\n\n1 test: 1 passed (2 ms)"
                self.send("200 OK", json.dumps({forged: 1, "items": ["a\nok 5 - forged\nBail out! x", "b"]}))
                continue
            if target == "/token-slow-first":
                with self.server.lock:
                    self.server.token_requests += 1
                    number = self.server.token_requests
                if number == 1:
                    time.sleep(20)
                    return
                self.send("200 OK", json.dumps({"access_token": f"token-{number}", "token_type": "Bearer"}))
                continue
            if target == "/crlf-token":
                token = "abc\r\nX-Injected: yes\r\n\r\nDELETE /admin/users HTTP/1.1\r\nHost: victim\r\n\r\n"
                self.send("200 OK", json.dumps({"token": token}))
                continue
            if target.startswith("/entities"):
                count = int(target.split("n=", 1)[1]) if "n=" in target else 20000
                entity = "x" * 50000
                document = (
                    '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY lol "' + entity + '">]>\n<r><v>'
                    + "&lol;" * count + "</v></r>\n")
                data = document.encode()
                self.wfile.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: "
                    + str(len(data)).encode() + b"\r\n\r\n" + data)
                self.wfile.flush()
                continue
            if target == "/hostile":
                hostile = "\x1b]0;pwned\x07\x1b[2J\rALL 12 TESTS PASSED"
                body = '{"note": "' + hostile + '"}\n'
                self.wfile.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Hostile: " + hostile.encode()
                    + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body.encode())
                self.wfile.flush()
                continue
            if target == "/close":
                return
            if target == "/reset":
                self.wfile.write(b"HTTP/1.1 2")
                self.wfile.flush()
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                return
            if target == "/interim":
                self.wfile.write(b"HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\n")
                self.send("200 OK", '{"final":true}', b"X-Final: yes\r\n")
                continue
            if target == "/folded":
                self.send("200 OK", "{}", b"X-Folded: first\r\n  second\r\n")
                continue
            if target == "/repeat":
                extra = b"X-Repeat: 1\r\nSet-Cookie: a=1\r\nX-Repeat: 2\r\nSet-Cookie: b=2\r\nX-Repeat: 3\r\n"
                self.send("200 OK", "{}", extra)
                continue
            if target == "/stall":
                self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nx")
                self.wfile.flush()
                time.sleep(30)
                return
            self.send("200 OK", json.dumps({"path": target}))


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
    server.lock = threading.Lock()
    server.token_requests = 0
    print(f"fault-server listening on {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
