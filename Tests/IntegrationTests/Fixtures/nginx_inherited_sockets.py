"""Starts nginx on listening sockets bound to 127.0.0.1:0, so that no port is chosen before it is bound: binds and
listens on COUNT sockets, prints their ports on one line (space-separated) once they all listen, reads the path of
an nginx configuration written for those ports from standard input, then replaces itself with nginx, handing the
sockets over through nginx's NGINX environment variable (the inherited sockets of its binary upgrade, matched to
the configuration's `listen 127.0.0.1:PORT` lines). A client that connects before nginx serves waits in the
backlog. The prefix (-p) is the configuration file's folder.

Usage: nginx_inherited_sockets.py COUNT [NGINX]   (NGINX: the nginx binary, /usr/sbin/nginx by default)
"""

import os
import socket
import sys


def main():
    count = int(sys.argv[1])
    binary = sys.argv[2] if len(sys.argv) > 2 else "/usr/sbin/nginx"
    sockets = []
    for _ in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        sock.listen(511)
        sock.set_inheritable(True)
        sockets.append(sock)
    print(" ".join(str(sock.getsockname()[1]) for sock in sockets), flush=True)
    config = sys.stdin.readline().strip()
    if not config:
        sys.exit("nginx_inherited_sockets.py: no configuration path on standard input")
    environment = dict(os.environ, NGINX="".join(f"{sock.fileno()};" for sock in sockets))
    os.execve(binary, [binary, "-c", config, "-p", os.path.dirname(config)], environment)


if __name__ == "__main__":
    main()
