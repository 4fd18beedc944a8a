#!/usr/bin/env python3
"""Parses Prometheus text exposition with prometheus_client's own parser, an implementation
independent of the server's encoder, and prints what it read as JSON:
[{"name", "type", "help", "samples": [{"name", "labels", "value"}]}, ...].

Reads the text from stdin, or from a running server with --url http://HOST:PORT/metrics (then
the Content-Type must be the 0.0.4 text format). Exits 1 with the parser's complaint when the
text does not parse.
"""
import argparse
import json
import math
import sys
import urllib.request

from prometheus_client.parser import text_string_to_metric_families


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--url")
    arguments.add_argument("--timeout", type=float, default=10)
    options = arguments.parse_args()
    if options.url:
        with urllib.request.urlopen(options.url, timeout=options.timeout) as response:
            kind = response.headers.get("Content-Type", "")
            if not kind.startswith("text/plain") or "version=0.0.4" not in kind:
                sys.exit(f"unexpected Content-Type {kind!r}")
            text = response.read().decode("utf-8")
    else:
        text = sys.stdin.buffer.read().decode("utf-8")
    try:
        families = list(text_string_to_metric_families(text))
    except Exception as error:  # the parser raises ValueError and others
        sys.exit(f"does not parse: {error!r}")
    result = []
    for family in families:
        samples = []
        for sample in family.samples:
            value = sample.value
            if math.isnan(value) or math.isinf(value):
                value = str(value)
            samples.append({"name": sample.name, "labels": sample.labels, "value": value})
        result.append(
            {"name": family.name, "type": family.type, "help": family.documentation,
             "samples": samples})
    print(json.dumps(result))


main()
