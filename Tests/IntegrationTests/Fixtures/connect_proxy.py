"""An HTTP proxy on 127.0.0.1 (proxy.py, from PyPI: plain HTTP forwarding and CONNECT tunnels to any port) on a port
the system picks when the socket is bound, printed on one line only once it listens (proxy.py's embedded mode binds
and listens on entering its context). Its access log (one line per request or tunnel, "CONNECT host:port") goes to
standard error, which the tests read to see that a request went through it.
"""

import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures

import proxy  # noqa: E402


def main():
    arguments = ["--hostname", "127.0.0.1", "--port", "0", "--num-workers", "1", "--num-acceptors", "1"]
    with proxy.Proxy(arguments) as running:
        print(running.flags.port, flush=True)
        while True:
            time.sleep(3600)


if __name__ == "__main__":
    main()
