#!/usr/bin/env python3
"""Fails when a test source writes outside the build tree: /tmp paths, ::testing::TempDir() or
std::filesystem::temp_directory_path() (tests use tests/support/test_output_dir.hpp or their CMake binary dir).

usage: check_test_sources.py TESTS_DIR
"""
import pathlib
import re
import sys

FORBIDDEN = re.compile(r'TempDir\(\)|temp_directory_path\(|"/tmp\b|\s/tmp/')


def main():
    root = pathlib.Path(sys.argv[1])
    me = pathlib.Path(__file__).resolve()
    hits = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in {".cpp", ".hpp", ".cmake", ".txt", ".py", ".sh"} or path.resolve() == me:
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if FORBIDDEN.search(line):
                hits.append(f"{path}:{number}: {line.strip()}")
    print("\n".join(hits) if hits else f"no test source under {root} writes to /tmp")
    sys.exit(1 if hits else 0)


if __name__ == "__main__":
    main()
