#!/usr/bin/env python3
"""Generated reports for the fleet database's scale test and bench: N copies of a
valid report, each a distinct run (its own run.id, counter and start time) on one
of M machines (a serial number GEN-0000... in SMBIOS), the measurements unchanged.
Synthetic: they exist to load the importer, never to be quoted as results.

usage: fleet_gen.py BASE.json OUTDIR N [MACHINES]"""
import json
import os
import sys


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    base_path, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    machines = int(sys.argv[4]) if len(sys.argv) == 5 else 50
    with open(base_path) as f:
        base = json.load(f)
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        run = base["run"]
        run["id"] = "gen-%06d" % i
        run["counter"] = i + 1
        run["start_time"] = "2026-01-%02dT%02d:%02d:%02d" % (1 + i // 1440 % 28, i // 60 % 24, i % 60, i % 59)
        system = base.setdefault("firmware", {}).setdefault("smbios", {}).setdefault("system", {})
        if isinstance(system, dict):
            system["serial"] = "GEN-%04d" % (i % machines)
        with open(os.path.join(out, "gen-%06d.json" % i), "w") as f:
            json.dump(base, f, separators=(",", ":"))


main()
