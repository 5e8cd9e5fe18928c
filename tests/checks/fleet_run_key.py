#!/usr/bin/env python3
"""The fleet database's run key of each report, computed here independently of
tlbscope-report (tests/checks/fleetdb.sh): SHA-256 of the report's canonical
JSON (reports/tool/fleet/run_key.c): keys sorted by their bytes, no
whitespace, in strings only '"', '\\' and control characters escaped (as
\\u00XX), an integer or an integral number below 2^53 as its digits, any
other number as C's %.17g. Prints "r" + the first 16 hex digits, the id
`import` prints, one line per file.
Usage: fleet_run_key.py FILE..."""
import hashlib
import json
import re
import sys

ESCAPE = re.compile(rb'["\\\x00-\x1f]')


def canon(v, out):
    if isinstance(v, dict):
        out.append(b"{")
        for i, k in enumerate(sorted(v, key=lambda k: k.encode())):
            if i:
                out.append(b",")
            canon(k, out)
            out.append(b":")
            canon(v[k], out)
        out.append(b"}")
    elif isinstance(v, list):
        out.append(b"[")
        for i, e in enumerate(v):
            if i:
                out.append(b",")
            canon(e, out)
        out.append(b"]")
    elif isinstance(v, str):
        out.append(b'"' + ESCAPE.sub(lambda m: b"\\u%04x" % m.group()[0], v.encode()) + b'"')
    elif v is True or v is False or v is None:
        out.append({True: b"true", False: b"false", None: b"null"}[v])
    elif isinstance(v, int):
        out.append(b"%d" % v)
    elif v == int(v) and abs(v) < 2.0 ** 53:
        out.append(b"%d" % int(v))
    else:
        out.append(b"%.17g" % v)


for path in sys.argv[1:]:
    parts = []
    canon(json.load(open(path, encoding="utf-8")), parts)
    print("r" + hashlib.sha256(b"".join(parts)).hexdigest()[:16])
