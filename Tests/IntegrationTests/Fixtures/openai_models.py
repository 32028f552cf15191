#!/usr/bin/env python3
"""The two model endpoints of OpenAI's API as its public OpenAPI document declares them, for checking a run's responses
against that document (standard library only).

Prints "openai-models listening on <port>" once ready. Paths:
  GET /v1/models          {"object": "list", "data": [a model]}, as ListModelsResponse says
  GET /v1/models/<id>     the model <id>; the model "broken" has no owned_by, which Model requires
Every request line received is appended to the file named by --log (if given).
"""
import argparse
import http.server
import json


MODEL = {"id": "gpt-test", "object": "model", "created": 1700000000, "owned_by": "apitest"}


class Handler(http.server.BaseHTTPRequestHandler):
    log_file = None

    def do_GET(self):
        if self.log_file:
            with open(self.log_file, "a") as log:
                log.write(self.requestline + "\n")
        if self.path == "/v1/models":
            self.answer(200, {"object": "list", "data": [MODEL]})
        elif self.path.startswith("/v1/models/"):
            name = self.path[len("/v1/models/"):]
            model = dict(MODEL, id=name)
            if name == "broken":
                del model["owned_by"]
            self.answer(200, model)
        else:
            self.answer(404, {"error": {"message": "not found"}})

    def answer(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log")
    arguments = parser.parse_args()
    Handler.log_file = arguments.log
    server = http.server.ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    print(f"openai-models listening on {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
