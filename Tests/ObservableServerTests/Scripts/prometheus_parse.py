#!/usr/bin/env python3
"""Parses Prometheus text exposition with prometheus_client's own parser, an implementation
independent of the server's encoder, and prints what it read as JSON:
[{"name", "type", "help", "samples": [{"name", "labels", "value"}]}, ...].

Reads the text from stdin, or from a running server with --url http://HOST:PORT/metrics (then
the Content-Type must be the 0.0.4 text format). With --openmetrics the text is OpenMetrics
1.0.0, read by prometheus_client's OpenMetrics parser, which refuses two families of one name
(a gauge `x` beside a counter `x_total`); with --url it is asked for as Prometheus asks.
Exits 1 with the parser's complaint when the text does not parse.
"""
import argparse
import json
import math
import sys
import urllib.request

from prometheus_client.openmetrics.parser import (
    text_string_to_metric_families as openmetrics_families)
from prometheus_client.parser import text_string_to_metric_families

OPENMETRICS = "application/openmetrics-text"
# What Prometheus sends by default: OpenMetrics first, then the text formats.
PROMETHEUS_ACCEPT = (
    "application/openmetrics-text;version=1.0.0;q=0.5,"
    "application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2")


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--url")
    arguments.add_argument("--timeout", type=float, default=10)
    arguments.add_argument("--openmetrics", action="store_true")
    options = arguments.parse_args()
    if options.url:
        request = urllib.request.Request(options.url)
        if options.openmetrics:
            request.add_header("Accept", PROMETHEUS_ACCEPT)
        with urllib.request.urlopen(request, timeout=options.timeout) as response:
            kind = response.headers.get("Content-Type", "")
            if options.openmetrics:
                if not kind.startswith(OPENMETRICS) or "version=1.0.0" not in kind:
                    sys.exit(f"unexpected Content-Type {kind!r}")
            elif not kind.startswith("text/plain") or "version=0.0.4" not in kind:
                sys.exit(f"unexpected Content-Type {kind!r}")
            text = response.read().decode("utf-8")
    else:
        text = sys.stdin.buffer.read().decode("utf-8")
    parse = openmetrics_families if options.openmetrics else text_string_to_metric_families
    try:
        families = list(parse(text))
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
