#!/usr/bin/env python3
"""Fails on an #include that climbs a layer (docs/architecture.md).

Each source file belongs to one layer by its path; it may include its own layer's headers and those
of the layers listed as below it. StarPU headers are allowed only in the StarPU glue and the StarPU
runtime, CUDA headers only in CUDA translation units (*_cuda.*, *.cu, *.cuh) and their helpers.
The compiler enforces the same through per-target include folders (cmake/hetsparse_layers.cmake);
this check also covers the layers inside one folder (runtime/ vs runtime/starpu/, a codelet's task
half vs its StarPU half) and names the rule that was broken.

    scripts/check_layers.py [--root DIR]      exit 1 and one line per violation, else a summary
"""
import argparse
import fnmatch
import re
import subprocess
import sys
from pathlib import Path

# (layer, path patterns), first match wins: more specific patterns first.
LAYERS = [
    ("public", ["include/hetsparse/*"]),
    ("sparse", ["sparse/*"]),
    ("reference", ["reference/*"]),
    ("symbolic", ["symbolic/*"]),
    ("starpu-runtime", ["runtime/starpu/*"]),
    ("tasks", ["runtime/*"]),
    ("kernels", ["kernels/*"]),
    ("starpu-glue", ["codelets/support/*", "codelets/*_starpu.cpp", "codelets/*/*_starpu.cpp",
                     "codelets/*/*_workers.hpp", "codelets/bind_codelets.cpp"]),
    ("codelet-tasks", ["codelets/*"]),
    ("planners", ["planners/*"]),
    ("solvers", ["cholesky/*", "sptrsv/*", "spmv/*", "krylov/*"]),
    ("cli", ["cli/*"]),
    ("top", ["apps/*", "bench/*", "examples/*", "tests/*", "python/*"]),
]

# What each layer may include besides itself.
BELOW = {
    "public": [],
    "sparse": ["public"],
    "reference": ["sparse", "public"],
    "symbolic": ["sparse", "public"],
    "tasks": ["sparse", "public"],
    "kernels": ["sparse", "public"],
    "codelet-tasks": ["tasks", "kernels", "sparse", "public"],
    "starpu-glue": ["codelet-tasks", "tasks", "kernels", "sparse", "public"],
    "starpu-runtime": ["starpu-glue", "codelet-tasks", "tasks", "kernels", "sparse", "public"],
    "planners": ["codelet-tasks", "tasks", "symbolic", "kernels", "sparse", "public"],
    "solvers": ["planners", "codelet-tasks", "tasks", "symbolic", "kernels", "sparse", "public"],
    "cli": ["starpu-runtime", "starpu-glue", "solvers", "planners", "codelet-tasks", "tasks", "symbolic", "kernels", "sparse",
            "public"],
    "top": None,  # anything
}

STARPU_OK = {"starpu-glue", "starpu-runtime", "top"}
CUDA_FILE = re.compile(r"(_cuda\.(cpp|hpp)|\.cuh?)$")
# Host headers that wrap CUDA libraries for the CUDA translation units around them.
CUDA_HELPERS = {"kernels/common/cublas_params.hpp", "kernels/common/cuda_check.hpp",
                "kernels/supernode/cublas_stream_scope.hpp", "sptrsv/cuda_resources.hpp"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SYSTEM_STARPU = re.compile(r"^starpu")
SYSTEM_CUDA = re.compile(r"^(cuda|cublas|cusparse|cusolver|cub/|thrust/|cooperative_groups)")


def layer_of(path):
    if path.startswith("hetsparse/"):
        path = "include/" + path
    for name, patterns in LAYERS:
        if any(fnmatch.fnmatch(path, p) for p in patterns):
            return name
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    args = ap.parse_args()
    root = Path(args.root)
    files = subprocess.run(["git", "-C", str(root), "ls-files", "*.cpp", "*.hpp", "*.cu", "*.cuh", "*.h"],
                           check=True, capture_output=True, text=True).stdout.split()
    bad, checked = [], 0
    for f in files:
        own = layer_of(f)
        if own is None:
            bad.append(f"{f}: in no layer (add its folder to scripts/check_layers.py)")
            continue
        for lineno, line in enumerate((root / f).read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            checked += 1
            quoted, target = m.group(1) == '"', m.group(2)
            where = f"{f}:{lineno}"
            if not quoted:
                if SYSTEM_STARPU.match(target) and own not in STARPU_OK:
                    bad.append(f"{where}: <{target}> in layer {own}: StarPU belongs to codelets' glue and runtime/starpu")
                if SYSTEM_CUDA.match(target) and own != "top" and not CUDA_FILE.search(f) and f not in CUDA_HELPERS \
                        and "cuda_libraries" not in f:
                    bad.append(f"{where}: <{target}> outside a CUDA translation unit (*_cuda.*, *.cu)")
                continue
            sibling = (Path(f).parent / target).as_posix()
            if not (root / target).exists() and (root / sibling).exists():
                target = sibling  # included relative to the file's own folder
            theirs = layer_of(target)
            if theirs is None:
                bad.append(f"{where}: \"{target}\" is in no layer")
            elif theirs != own and BELOW[own] is not None and theirs not in BELOW[own]:
                bad.append(f"{where}: layer {own} includes \"{target}\" of layer {theirs}, which is not below it")
    for b in bad:
        print(b)
    if bad:
        print(f"check_layers: {len(bad)} include(s) climb a layer", file=sys.stderr)
        return 1
    print(f"check_layers: {checked} includes in {len(files)} files respect the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
