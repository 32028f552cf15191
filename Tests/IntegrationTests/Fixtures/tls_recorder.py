#!/usr/bin/env python3
"""A TLS server that records every byte it receives after each handshake, then answers 200.

Usage: tls_recorder.py --cert CHAIN --key KEY --log FILE
Prints "listening on PORT" once ready. The log gets one line per connection: "handshake-failed: <reason>" or
"received <n> bytes: <repr of the bytes>".
"""
import argparse
import socket
import ssl
import threading


def serve(connection, context, log, lock):
    try:
        try:
            tls = context.wrap_socket(connection, server_side=True)
        except (ssl.SSLError, OSError) as error:
            with lock, open(log, "a") as out:
                out.write(f"handshake-failed: {error}\n")
            return
        tls.settimeout(2)
        data = b""
        try:
            while b"\r\n\r\n" not in data:
                chunk = tls.recv(65536)
                if not chunk:
                    break
                data += chunk
        except (ssl.SSLError, OSError):
            pass
        with lock, open(log, "a") as out:
            out.write(f"received {len(data)} bytes: {data!r}\n")
        if data:
            try:
                tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            except OSError:
                pass
        tls.close()
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--log", required=True)
    arguments = parser.parse_args()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(arguments.cert, arguments.key)
    context.set_alpn_protocols(["http/1.1"])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    open(arguments.log, "w").close()
    print(f"listening on {listener.getsockname()[1]}", flush=True)
    lock = threading.Lock()
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection, context, arguments.log, lock), daemon=True).start()


if __name__ == "__main__":
    main()
