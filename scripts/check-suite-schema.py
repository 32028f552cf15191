#!/usr/bin/env python3
"""Checks suite files against schemas/apitest.schema.json, independently of apitest's own loader.

Usage: scripts/check-suite-schema.py SCHEMA FILE...

Prints one line per file, `valid FILE` or `invalid FILE: <path in the document>: <message>`, and exits 0 when every
file is valid, 1 when one is not (2 for a bad schema or a file that is not YAML). The YAML is read with the YAML 1.2
core schema, as apitest reads it (`yes`, `on` and dates stay strings; `0o17` is an integer), not PyYAML's YAML 1.1
defaults. Needs PyYAML and jsonschema (scripts/install-deps.sh installs both).
"""

import json
import math
import re
import sys

import jsonschema
import yaml


class CoreSchemaLoader(yaml.SafeLoader):
    """PyYAML's safe loader with the YAML 1.2 core schema's implicit types instead of YAML 1.1's."""


CoreSchemaLoader.yaml_implicit_resolvers = {}
for tag, pattern, first in [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", list("~nN") + [""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+.0123456789"),
    ),
    ("tag:yaml.org,2002:merge", r"^<<$", ["<"]),
]:
    CoreSchemaLoader.add_implicit_resolver(tag, re.compile(pattern), first)


def construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)


def construct_float(loader, node):
    text = loader.construct_scalar(node).lower()
    if text.endswith(".inf"):
        return -math.inf if text.startswith("-") else math.inf
    if text == ".nan":
        return math.nan
    return float(text)


CoreSchemaLoader.add_constructor("tag:yaml.org,2002:int", construct_int)
CoreSchemaLoader.add_constructor("tag:yaml.org,2002:float", construct_float)


def as_json(value):
    """The document as JSON data: keys become strings as apitest reads them (`200:` is the key "200")."""
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            if isinstance(key, bool):
                key = "true" if key else "false"
            elif key is None:
                key = ""
            result[str(key)] = as_json(item)
        return result
    if isinstance(value, list):
        return [as_json(item) for item in value]
    return value


def main(arguments):
    if len(arguments) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(arguments[0], encoding="utf-8") as handle:
        schema = json.load(handle)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    status = 0
    for path in arguments[1:]:
        try:
            with open(path, encoding="utf-8") as handle:
                document = as_json(yaml.load(handle, Loader=CoreSchemaLoader))
        except (yaml.YAMLError, UnicodeDecodeError, ValueError) as problem:
            print(f"unreadable {path}: {str(problem).splitlines()[0]}")
            status = 2
            continue
        errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
        if not errors:
            print(f"valid {path}")
            continue
        status = max(status, 1)
        best = jsonschema.exceptions.best_match(errors)
        where = "$" + "".join(f"[{part!r}]" for part in best.absolute_path)
        print(f"invalid {path}: {where}: {best.message[:300]}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
