#!/usr/bin/env python3
"""Runs a command and checks how it ends: exit status (never a signal, so no crash or core dump),
stderr/stdout patterns, wall time and peak memory. CTest's own PASS_REGULAR_EXPRESSION ignores
the exit status, hence this wrapper.

usage: run_checked.py [--status N] [--stderr RE]... [--stderr-not RE]... [--stdout RE]... [--stdout-not RE]...
                      [--max-seconds S] [--max-rss-mb M] [--env NAME=VALUE]... [--unset NAME]...
                      -- command [args...]
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--status", type=int, default=0)
    ap.add_argument("--stderr", action="append", default=[])
    ap.add_argument("--stderr-not", action="append", default=[])
    ap.add_argument("--stdout", action="append", default=[])
    ap.add_argument("--stdout-not", action="append", default=[])
    ap.add_argument("--max-seconds", type=float)
    ap.add_argument("--max-rss-mb", type=float)
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--unset", action="append", default=[])
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not command:
        ap.error("no command")
    env = dict(os.environ)
    for name in a.unset:
        env.pop(name, None)
    for item in a.env:
        name, _, value = item.partition("=")
        env[name] = value

    def no_core_files():  # a crash must not leave a core dump in the build tree either
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    t0 = time.monotonic()
    p = subprocess.run(command, env=env, capture_output=True, text=True, errors="replace", preexec_fn=no_core_files)
    seconds = time.monotonic() - t0
    rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    problems = []
    if p.returncode < 0:
        problems.append(f"killed by signal {-p.returncode}")
    elif p.returncode != a.status:
        problems.append(f"exit status {p.returncode}, expected {a.status}")
    problems += [f"stderr lacks /{r}/" for r in a.stderr if not re.search(r, p.stderr)]
    problems += [f"stderr has /{r}/" for r in a.stderr_not if re.search(r, p.stderr)]
    problems += [f"stdout lacks /{r}/" for r in a.stdout if not re.search(r, p.stdout)]
    problems += [f"stdout has /{r}/" for r in a.stdout_not if re.search(r, p.stdout)]
    if a.max_seconds is not None and seconds > a.max_seconds:
        problems.append(f"took {seconds:.1f} s, limit {a.max_seconds} s")
    if a.max_rss_mb is not None and rss_mb > a.max_rss_mb:
        problems.append(f"peak memory {rss_mb:.0f} MB, limit {a.max_rss_mb} MB")
    print(f"\nrun_checked: {seconds:.2f} s, peak {rss_mb:.0f} MB, status {p.returncode}")
    for problem in problems:
        print(f"run_checked: FAIL: {problem}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
