#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Validate memprobe result files against docs/result.schema.json.

Usage: python3 tests/results/validate_json.py FILE...

Prints one `PASS FILE` line per valid file and one `FAIL FILE: where: why`
line per problem; exits 1 when any file is invalid, 2 on a usage or setup
error.  Besides the schema, a file must be strict JSON: no NaN or Infinity
literals and no duplicate keys.
"""
import json
import pathlib
import sys

SCHEMA = pathlib.Path(__file__).resolve().parent.parent.parent / "docs" / "result.schema.json"


def reject_constant(name):
    raise ValueError(f"{name} is not JSON (a value not available must be null)")


def reject_duplicates(pairs):
    keys = [k for k, _ in pairs]
    for k in keys:
        if keys.count(k) > 1:
            raise ValueError(f"duplicate key {k!r}")
    return dict(pairs)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_constant=reject_constant, object_pairs_hook=reject_duplicates)


def where(error):
    return "/".join(str(p) for p in error.absolute_path) or "(top level)"


def check(validator, path):
    """Print the verdict for one file; True when it is valid."""
    try:
        doc = load(path)
    except (OSError, ValueError) as e:
        print(f"FAIL {path}: not a readable JSON file: {e}")
        return False
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    for e in errors:
        print(f"FAIL {path}: {where(e)}: {e.message}")
    if not errors:
        print(f"PASS {path}: valid memprobe result")
    return not errors


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        from jsonschema import Draft202012Validator
    except ImportError:
        print("FAIL python3-jsonschema is not installed", file=sys.stderr)
        return 2
    schema = load(SCHEMA)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    results = [check(validator, path) for path in argv[1:]]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
