"""An HTTP server whose NTLM authentication is all pyspnego's NTLM acceptor (spnego.server(protocol="ntlm")), the
credentials it accepts read from the file pyspnego's NTLM_USER_FILE names (DOMAIN:USER:PASSWORD lines). This script
only carries the NTLM messages between HTTP headers and the acceptor, on one keep-alive connection as NTLM requires.

usage: python3 ntlm_server.py --port PORT [--log FILE] [--users FILE]; prints "listening on PORT" when ready."""
import argparse
import base64
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import spnego


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    context = None

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", challenge=None):
        self.send_response(status)
        if challenge is not None:
            self.send_header("WWW-Authenticate", challenge)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        authorization = self.headers.get("Authorization", "")
        if not authorization.startswith("NTLM "):
            self.context = None
            return self.reply(401, b"", "NTLM")
        token = base64.b64decode(authorization[5:])
        if self.context is None or token[8:12] == b"\x01\x00\x00\x00":
            # A negotiate message (type 1) starts a new exchange on this connection.
            self.context = spnego.server(protocol="ntlm")
        try:
            answer = self.context.step(token)
        except Exception as error:  # wrong password, malformed message: refused
            self.context = None
            return self.reply(401, json.dumps({"error": type(error).__name__}).encode(), "NTLM")
        if answer is not None and not self.context.complete:
            return self.reply(401, b"", "NTLM " + base64.b64encode(answer).decode())
        if self.context.complete:
            user = self.context.client_principal
            self.context = None
            return self.reply(200, json.dumps({"authenticated": True, "user": user}).encode())
        self.context = None
        return self.reply(401, b"", "NTLM")

    do_POST = do_GET


parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, default=0)
parser.add_argument("--log")
parser.add_argument("--users", default="CORP:alice:ntlm-secret-5")
arguments = parser.parse_args()
if os.path.exists(arguments.users):
    os.environ["NTLM_USER_FILE"] = arguments.users
else:
    # DOMAIN:USER:PASSWORD given inline: written to a file of its own for pyspnego.
    path = (arguments.log or "/tmp/ntlm") + ".users"
    with open(path, "w") as users:
        users.write(arguments.users + "\n")
    os.environ["NTLM_USER_FILE"] = path
server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
server.daemon_threads = True
print("listening on", server.server_address[1], flush=True)
server.serve_forever()
