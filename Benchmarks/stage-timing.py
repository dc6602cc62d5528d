#!/usr/bin/env python3
"""Plays `uquiz solve --json` at real speed and reports how late stages are shown (at_ms - scheduled_ms).

Usage: stage-timing.py UQUIZ_BINARY DATABASE STAGES OUT.json
Skips each quiz right after its fifth stage, so 100 stages take about 160 s instead of 400 s.
"""
import json
import subprocess
import sys

binary, database, wanted, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
process = subprocess.Popen(
    [binary, "solve", "en-silent", "--json", "--db", database, "--player", "bench"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
lateness = []
for line in process.stdout:
    event = json.loads(line)
    if event["event"] == "stage":
        lateness.append(event["at_ms"] - event["scheduled_ms"])
        if len(lateness) >= wanted:
            break
        if event["stage"] == 5:
            process.stdin.write("/skip\n")
            process.stdin.flush()
process.kill()
process.wait()
lateness.sort()
def percentile(p):
    return lateness[min(len(lateness) - 1, int(round(p / 100 * (len(lateness) - 1))))]
json.dump({"stages": len(lateness), "p50": percentile(50), "p99": percentile(99), "max": lateness[-1]}, open(out, "w"))
