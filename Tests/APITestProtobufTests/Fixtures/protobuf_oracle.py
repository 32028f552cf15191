"""The codec tests' oracle: Google's own protobuf runtime (PyPI `protobuf`, pinned in scripts/install-deps.sh).

Reads one JSON request on stdin: {"descriptor_set": path, "encode": [...], "parse": [...]}.
- encode: [{"type": full name, "json": value}] -> for each, json_format.ParseDict, then SerializeToString (as
  base64) and MessageToJson (as a parsed JSON value): {"binary": b64, "json": value} or {"error": text}.
- parse: [{"type": full name, "binary": b64}] -> ParseFromString, then MessageToDict: {"json": value} or
  {"error": text}.
Writes {"encoded": [...], "parsed": [...]} on stdout.
"""
import base64
import json
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
# The official well-known types, in the default pool before the test files that import them.
from google.protobuf import any_pb2, duration_pb2, empty_pb2, field_mask_pb2, struct_pb2  # noqa: F401
from google.protobuf import timestamp_pb2, wrappers_pb2  # noqa: F401


def main():
    request = json.load(sys.stdin)
    pool = descriptor_pool.Default()
    with open(request["descriptor_set"], "rb") as handle:
        files = descriptor_pb2.FileDescriptorSet.FromString(handle.read())
    for file in files.file:
        if file.name.startswith("google/protobuf/"):
            continue
        try:
            pool.FindFileByName(file.name)
        except KeyError:
            pool.Add(file)

    def new(name):
        return message_factory.GetMessageClass(pool.FindMessageTypeByName(name))()

    encoded = []
    for case in request.get("encode", []):
        try:
            message = new(case["type"])
            json_format.ParseDict(case["json"], message, descriptor_pool=pool)
            encoded.append({
                "binary": base64.b64encode(message.SerializeToString()).decode(),
                "json": json.loads(json_format.MessageToJson(message, descriptor_pool=pool)),
            })
        except Exception as error:  # noqa: BLE001 - reported to the test
            encoded.append({"error": f"{type(error).__name__}: {error}"})
    parsed = []
    for case in request.get("parse", []):
        try:
            message = new(case["type"])
            message.ParseFromString(base64.b64decode(case["binary"]))
            parsed.append({"json": json_format.MessageToDict(message, descriptor_pool=pool)})
        except Exception as error:  # noqa: BLE001
            parsed.append({"error": f"{type(error).__name__}: {error}"})
    json.dump({"encoded": encoded, "parsed": parsed}, sys.stdout)


if __name__ == "__main__":
    main()
