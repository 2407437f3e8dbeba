#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Count one `meson test` run of tests/run against what the build registers.

    tally.py TESTS_JSON TESTLOG_JSON MESON_STATUS ALLOWED_SKIPS STRICT

TESTS_JSON is `meson introspect --tests`, TESTLOG_JSON meson's
meson-logs/testlog.json (one object per finished test), MESON_STATUS the exit
status of `meson test`, ALLOWED_SKIPS the file of tests that may skip (one
"NAME reason" a line, # comments), STRICT 1 when every skip outside that file
is a failure (a machine set up by `.ci/deps test`).

Prints "PASSED FAILED SKIPPED REGISTERED" on stdout; each problem gets one line on
stderr. A registered test with no result (a killed or partial run) is
failed, and so is a non-zero MESON_STATUS that no failed test explains.
"""
import collections
import json
import sys

PASS = {'OK', 'EXPECTEDFAIL'}
SKIP = {'SKIP'}


def display_name(test):
    """meson's "project:suite+suite / name" for an introspected test."""
    suites = test.get('suite') or []
    if not suites:
        return test['name']
    project = suites[0].split(':', 1)[0]
    parts = [s.split(':', 1)[1] if ':' in s else s for s in suites]
    return '%s:%s / %s' % (project, '+'.join(parts), test['name'])


def load_allowed(path):
    allowed = {}
    try:
        with open(path, encoding='utf-8') as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith('#'):
                    continue
                name, _, reason = line.partition(' ')
                if not reason.strip():
                    raise ValueError('%s: %s: no reason given' % (path, name))
                allowed[name] = reason.strip()
    except FileNotFoundError:
        pass
    return allowed


def main(argv):
    if len(argv) != 6:
        print('usage: tally.py TESTS_JSON TESTLOG_JSON MESON_STATUS '
              'ALLOWED_SKIPS STRICT', file=sys.stderr)
        return 2
    tests_json, log_json, status, allowed_path, strict = argv[1:]
    status = int(status)
    strict = strict == '1'
    say = lambda msg: print('tests: ' + msg, file=sys.stderr)

    try:
        with open(tests_json, encoding='utf-8') as f:
            registered = collections.Counter(display_name(t)
                                             for t in json.load(f))
    except (OSError, ValueError) as e:
        say('cannot read the registered tests: %s' % e)
        print(0, 1, 0, 0)
        return 0
    allowed = load_allowed(allowed_path)

    results = []
    try:
        with open(log_json, encoding='utf-8', errors='replace') as f:
            for n, line in enumerate(f, 1):
                try:
                    rec = json.loads(line)
                    results.append((rec['name'], rec['result']))
                except (ValueError, KeyError):
                    # a run killed while writing its log
                    say('%s:%d: not a test result' % (log_json, n))
    except OSError as e:
        say('no test log: %s' % e)

    passed = failed = skipped = 0
    broken = 0  # failures meson itself knows of
    seen = collections.Counter()
    for name, result in results:
        seen[name] += 1
        if seen[name] > registered[name]:
            say('%s: result for a test that is not registered (or twice)'
                % name)
            failed += 1
            broken += 1
        elif result in PASS:
            passed += 1
        elif result in SKIP:
            short = name.split(' / ', 1)[-1]
            if not strict or name in allowed or short in allowed:
                skipped += 1
            else:
                say('%s: skipped, and not in %s: counted as failed'
                    % (name, allowed_path))
                failed += 1
        else:
            failed += 1
            broken += 1

    missing = registered - seen
    for name, n in sorted(missing.items()):
        say('%s: no result (run killed or incomplete)' % name)
        failed += n
        broken += n

    if status != 0 and broken == 0:
        say('meson test exited with status %d although no test failed'
            % status)
        failed += 1
    print(passed, failed, skipped, sum(registered.values()))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
