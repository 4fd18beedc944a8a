#!/usr/bin/env python3
"""A strict, independent logfmt reader for the log handler's tests.

Reads lines on stdin and prints one JSON object per line on stdout:
{"priority": <int or null>, "pairs": [[key, value], ...]}.
A line may start with a syslog priority prefix "<0>".."<7>". Pairs are separated by exactly
one space; a key is one or more characters other than space, '=' and '"'; a value is either
bare (no space, '=', '"' or control character, possibly empty) or double-quoted with the
escapes \\" \\\\ \\n \\r \\t and \\uXXXX. Anything else is an error: the script prints where
and exits 1, so a test fails on any line a logfmt parser would misread.
"""
import json
import re
import sys

PRIORITY = re.compile(r"<([0-7])>")
KEY = re.compile(r'[^ ="\x00-\x1f]+')
BARE = re.compile(r'[^ ="\x00-\x1f\x7f]*')
ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "r": "\r", "t": "\t"}


def parse(line):
    priority = None
    at = 0
    match = PRIORITY.match(line)
    if match:
        priority = int(match.group(1))
        at = match.end()
    pairs = []
    while at < len(line):
        if pairs:
            if line[at] != " ":
                raise ValueError(f"expected a space at {at}")
            at += 1
        key = KEY.match(line, at)
        if not key:
            raise ValueError(f"expected a key at {at}")
        at = key.end()
        if at >= len(line) or line[at] != "=":
            raise ValueError(f"expected '=' at {at}")
        at += 1
        if at < len(line) and line[at] == '"':
            at += 1
            value = []
            while True:
                if at >= len(line):
                    raise ValueError("unterminated quoted value")
                char = line[at]
                if char == '"':
                    at += 1
                    break
                if ord(char) < 0x20:
                    raise ValueError(f"raw control character at {at}")
                if char == "\\":
                    code = line[at + 1 : at + 2]
                    if code in ESCAPES:
                        value.append(ESCAPES[code])
                        at += 2
                    elif code == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", line[at + 2 : at + 6]):
                        value.append(chr(int(line[at + 2 : at + 6], 16)))
                        at += 6
                    else:
                        raise ValueError(f"bad escape at {at}")
                else:
                    value.append(char)
                    at += 1
            pairs.append([key.group(0), "".join(value)])
        else:
            bare = BARE.match(line, at)
            at = bare.end()
            pairs.append([key.group(0), bare.group(0)])
    return {"priority": priority, "pairs": pairs}


def main():
    data = sys.stdin.buffer.read().decode("utf-8")
    if data and not data.endswith("\n"):
        sys.exit("input does not end in a newline")
    for number, line in enumerate(data.split("\n")[:-1], 1):
        try:
            print(json.dumps(parse(line)))
        except ValueError as error:
            sys.exit(f"line {number}: {error}: {line!r}")


main()
