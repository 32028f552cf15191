#!/usr/bin/env python3
"""Writes apitest's man page (roff, section 1) from the binary's own description of its commands.

usage: scripts/make-man.py APITEST_BINARY > apitest.1

The text comes from `apitest --experimental-dump-help` (swift-argument-parser's JSON of every command, option and
help text) and the version from `apitest --version`, so the page always matches the binary it ships with: an
option is declared once, in the Swift source. The date is SOURCE_DATE_EPOCH's (reproducible builds) or today's.
"""

import datetime
import json
import os
import subprocess
import sys


def roff(text):
    """Text escaped for roff: backslashes, and a leading '.' or "'" that would start a request."""
    lines = []
    for line in text.replace("\\", "\\e").split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def dashes(text):
    """An option name with its hyphens as roff minus signs (copy-pasteable from the rendered page)."""
    return roff(text).replace("-", "\\-")


def option_names(argument):
    names = []
    for name in argument.get("names", []):
        prefix = "-" if name["kind"] in ("short", "longWithSingleDash") else "--"
        names.append(prefix + name["name"])
    return names


def paragraph(text):
    """A block of help text: paragraphs split on blank lines; indented lines (examples) kept as they are."""
    out = []
    for block in text.strip().split("\n\n"):
        block_lines = block.split("\n")
        if any(line.startswith("  ") for line in block_lines[1:]) or block_lines[0].startswith("  "):
            out.append(".PP\n.nf\n" + roff(block) + "\n.fi")
        else:
            out.append(".PP\n" + roff(" ".join(line.strip() for line in block_lines)))
    return "\n".join(out)


def command_section(command, path):
    """The page's part for one command (and, after it, each of its subcommands)."""
    out = []
    full = " ".join(path)
    arguments = [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)]
    subcommands = [s for s in command.get("subcommands", []) if s.get("shouldDisplay", True)]
    if len(path) > 1:
        synopsis = [f"\\fB{roff(full)}\\fR"]
        if subcommands:
            synopsis.append("\\fIsubcommand\\fR")
        if any(a["kind"] != "positional" for a in arguments):
            synopsis.append("[\\fIoptions\\fR]")
        for argument in arguments:
            if argument["kind"] == "positional":
                name = f"\\fI{roff(argument['valueName'])}\\fR" + (" ..." if argument.get("isRepeating") else "")
                synopsis.append(f"[{name}]" if argument.get("isOptional") else name)
        out.append(f'.SS "{roff(full)}"')
        out.append(" ".join(synopsis))
        if command.get("abstract"):
            out.append(".PP\n" + roff(command["abstract"]))
        if command.get("discussion"):
            out.append(paragraph(command["discussion"]))
        for argument in arguments:
            if argument["kind"] == "positional":
                heading = f"\\fI{roff(argument['valueName'])}\\fR"
            else:
                heading = ", ".join(f"\\fB{dashes(name)}\\fR" for name in option_names(argument))
                if argument["kind"] == "option":
                    heading += f" \\fI{roff(argument.get('valueName', 'value'))}\\fR"
            text = argument.get("abstract", "")
            if argument.get("defaultValue"):
                text += f" (default: {argument['defaultValue']})"
            if argument.get("isRepeating") and argument["kind"] != "positional":
                text += " May be repeated."
            out.append(".TP\n" + heading + "\n" + roff(text.strip()))
    for subcommand in subcommands:
        if subcommand["commandName"] == "help":
            continue
        out.append(command_section(subcommand, path + [subcommand["commandName"]]))
    return "\n".join(out)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make-man.py APITEST_BINARY")
    binary = sys.argv[1]
    dump = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True,
                                     text=True).stdout)
    version_line = subprocess.run([binary, "--version"], check=True, capture_output=True,
                                  text=True).stdout.split("\n")[0]
    version = version_line.split(" ", 1)[1]
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch else \
        datetime.datetime.now(datetime.timezone.utc)
    root = dump["command"]
    commands = [s for s in root.get("subcommands", []) if s["commandName"] != "help"]
    page = [
        f'.TH APITEST 1 "{when:%Y-%m-%d}" "apitest {roff(version)}" "User Commands"',
        ".SH NAME",
        "apitest \\- " + roff(root.get("abstract", "declarative HTTP API tests")),
        ".SH SYNOPSIS",
        "\\fBapitest\\fR \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]",
        ".br",
        "\\fBapitest\\fR \\fB\\-\\-version\\fR",
        ".br",
        "\\fBapitest\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR",
        ".SH DESCRIPTION",
        ".PP",
        "apitest runs suites of HTTP API tests written in YAML and checks every response. Its commands:",
    ]
    for command in commands:
        page.append(f".TP\n\\fB{roff(command['commandName'])}\\fR\n{roff(command.get('abstract', ''))}")
    page.append(".PP\n\\fB\\-\\-version\\fR prints apitest's version and those of the libcurl, OpenSSL and "
                "libyaml it runs on.")
    if root.get("discussion"):
        page.append(".SH EXIT STATUS")
        page.append(paragraph(root["discussion"]))
    page.append(".SH COMMANDS")
    page.append(command_section(root, ["apitest"]))
    page.extend([
        ".SH FILES",
        ".TP",
        "\\fI/usr/share/apitest/apitest.schema.json\\fR",
        "The JSON Schema of suite files, for editors (see editor.md in the documentation).",
        ".SH SEE ALSO",
        "\\fBcurl\\fR(1). The documentation: \\fI/usr/share/doc/apitest/\\fR (README.md, suite-format.md, ...).",
    ])
    sys.stdout.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
