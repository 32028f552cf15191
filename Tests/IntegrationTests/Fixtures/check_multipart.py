#!/usr/bin/env python3
"""An independent check of a multipart/form-data body: parses it with Python's standard library (email) and prints
one JSON line per part: name, filename, content type, size and SHA-256. Usage: check_multipart.py BODY_FILE
(the Content-Type is read from BODY_FILE.type)."""
import email.parser
import email.policy
import hashlib
import json
import sys

path = sys.argv[1]
with open(path + ".type") as f:
    content_type = f.read().strip()
with open(path, "rb") as f:
    body = f.read()
message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
    b"Content-Type: " + content_type.encode() + b"\r\nMIME-Version: 1.0\r\n\r\n" + body
)
if not message.is_multipart():
    print(json.dumps({"error": "not multipart"}))
    sys.exit(1)
if message.defects:
    print(json.dumps({"error": "defects: " + ", ".join(type(d).__name__ for d in message.defects)}))
    sys.exit(1)
parts = []
for part in message.iter_parts():
    disposition = part.get("Content-Disposition", "")
    if not disposition.startswith("form-data"):
        print(json.dumps({"error": "bad disposition " + disposition}))
        sys.exit(1)
    payload = part.get_payload(decode=True) or b""
    params = dict(part.get_params(header="content-disposition")[1:])
    parts.append({
        "name": params.get("name"),
        "filename": params.get("filename"),
        "contentType": part.get("Content-Type"),
        "size": len(payload),
        "sha256": hashlib.sha256(payload).hexdigest(),
    })
print(json.dumps(parts, ensure_ascii=False))
