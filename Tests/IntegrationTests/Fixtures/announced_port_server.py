"""Serves a WSGI app (on werkzeug) or an ASGI app (on uvicorn) on 127.0.0.1, on a port the system picks when the
socket is bound, and prints that port (one line on standard output) only once the socket listens: a test reads the
line and connects at once, with no probe-then-bind race against other servers and no polling. Anything the server
writes later goes to standard error, so standard output ends after the port line. An app that cannot be imported
fails before anything is printed, with its traceback on standard error.

Usage: announced_port_server.py wsgi|asgi MODULE:ATTRIBUTE [--app-dir DIR]
  wsgi httpbin.core:app                                  httpbin (Flask) on werkzeug's threaded server
  asgi sse_starlette_app:app --app-dir Tests/.../Fixtures  an ASGI app on uvicorn (log level warning)
"""

import argparse
import importlib
import os
import socket
import sys


def load(spec):
    """The object MODULE:ATTRIBUTE names (ATTRIBUTE may be dotted)."""
    module_name, _, attribute = spec.partition(":")
    target = importlib.import_module(module_name)
    for part in (attribute or "app").split("."):
        target = getattr(target, part)
    return target


def announce(port):
    """Prints the port, then points standard output at standard error so the reader sees the end of the output."""
    sys.stdout.write(f"{port}\n")
    sys.stdout.flush()
    os.dup2(2, 1)


def serve_wsgi(app):
    from werkzeug.serving import make_server

    # make_server binds and listens before it returns.
    server = make_server("127.0.0.1", 0, app, threaded=True)
    announce(server.socket.getsockname()[1])
    server.serve_forever()


def serve_asgi(app):
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    announce(sock.getsockname()[1])
    server.run(sockets=[sock])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("kind", choices=["wsgi", "asgi"])
    parser.add_argument("app", help="MODULE:ATTRIBUTE")
    parser.add_argument("--app-dir", help="a folder to import the app's module from")
    args = parser.parse_args()
    if args.app_dir:
        sys.path.insert(0, args.app_dir)
    app = load(args.app)
    if args.kind == "wsgi":
        serve_wsgi(app)
    else:
        serve_asgi(app)


if __name__ == "__main__":
    main()
