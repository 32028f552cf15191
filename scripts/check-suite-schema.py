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
    ("tag:yaml.org,2002:int", r"^[-+]?(?:[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+.0123456789"),
    ),
    ("tag:yaml.org,2002:merge", r"^<<$", ["<"]),
]:
    CoreSchemaLoader.add_implicit_resolver(tag, re.compile(pattern), first)


def parse_int(text):
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    if digits.startswith("0o"):
        return sign * int(digits[2:], 8)
    if digits.startswith("0x"):
        return sign * int(digits[2:], 16)
    return sign * int(digits, 10)


def construct_int(loader, node):
    # As apitest reads them: beyond 64 bits an integer is a float (a hex or octal one beyond 2^64, a string), and a
    # scalar tagged !!int that is not an integer is a string.
    text = loader.construct_scalar(node)
    try:
        value = parse_int(text)
    except ValueError:
        return text
    if -(2**63) <= value <= 2**63 - 1:
        return value
    if text.lstrip("+-")[:2] in ("0x", "0o") and abs(value) >= 2**64:
        return text
    return float(value)


def construct_float(loader, node):
    text = loader.construct_scalar(node)
    lower = text.lower()
    if lower in (".inf", "+.inf", "-.inf"):
        return -math.inf if lower.startswith("-") else math.inf
    if lower == ".nan":
        return math.nan
    try:
        return float(text)
    except ValueError:
        try:
            return parse_int(text)
        except ValueError:
            return text


def construct_other(loader, node):
    """Tags apitest does not know (!!binary, !!timestamp, !custom): their node as plain data, scalars as text."""
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_mapping(node, deep=True)


CoreSchemaLoader.add_constructor("tag:yaml.org,2002:int", construct_int)
CoreSchemaLoader.add_constructor("tag:yaml.org,2002:float", construct_float)
for tag in ["binary", "timestamp", "set", "omap", "pairs"]:
    CoreSchemaLoader.add_constructor(f"tag:yaml.org,2002:{tag}", construct_other)
CoreSchemaLoader.add_constructor(None, construct_other)


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
