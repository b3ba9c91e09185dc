import json
import sys


def write_report(report, out):
    text = json.dumps(report, indent=2, sort_keys=True)
    if out == "-":
        sys.stdout.write(text + "\n")
    else:
        with open(out, "w") as fh:
            fh.write(text + "\n")
