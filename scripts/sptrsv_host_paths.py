#!/usr/bin/python3
"""The host-vector solve paths of `hetsparse sptrsv`, from scripts/bench.d/sptrsv_host_paths.sh's JSON lines.

usage: sptrsv_host_paths.py report OUTDIR   the table (auto against the GPU path) and issue 16's targets
       sptrsv_host_paths.py resident OUTDIR the synchronous solves inline (auto) against as tasks (tasks)
       sptrsv_host_paths.py fit OUTDIR [--margin M ...]
                                           the placement's cost models (sptrsv/host_solve_place.hpp) fitted
                                           on --device cpu and --device gpu, and what each margin picks

report: per triangle, where auto ran solve() (one core or the GPU), its host solve beside the GPU path's,
the kernel alone, the resident solve and the selection, then how many meet the targets: host solve <=
1.1 x (kernel + copies), resident <= 1.1 x kernel + 10 us, selection <= one resident solve.
fit: relative least squares of one core's time on (1, rows, entries) and of the GPU path's on (1, levels,
entries, rows), in microseconds; for each margin, how many triangles it sends to the core, how many of
those are slower there than on the GPU (regressions) and how many it leaves on the GPU that the core
would have solved faster.
"""
import argparse
import json
import math
import pathlib
import sys


def load(path):
    rows = {}
    for line in pathlib.Path(path).read_text().splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        d = json.loads(line)
        rows[d["matrix"].split("/")[-1]] = d
    return rows


def us(d, key):
    return d.get(key, 0.0) * 1e3


def report(outdir):
    auto = load(outdir / "host_paths_auto.jsonl")
    gpu = load(outdir / "host_paths_gpu.jsonl")
    print("| triangle | rows | entries | levels | host solves | auto host (µs) | GPU path host (µs) | GPU / auto |"
          " kernel (µs) | auto / (kernel + copies) | resident (µs) | selection (µs) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    host_ok = res_ok = sel_ok = 0
    ratios = []
    for name in sorted(auto, key=lambda k: auto[k]["nnz"]):
        d, g = auto[name], gpu.get(name)
        kernel, copies, host, res = us(d, "kernel_ms"), us(d, "copy_ms"), us(d, "solve_ms"), us(d, "resident_solve_ms")
        sel = d.get("selection_s", 0.0) * 1e6
        ghost = us(g, "solve_ms") if g else float("nan")
        host_ok += kernel > 0 and host <= 1.1 * (kernel + copies)
        res_ok += kernel > 0 and res <= 1.1 * kernel + 10
        sel_ok += sel <= res
        if g:
            ratios.append(ghost / host)
        where = "one core" if d.get("host_solves_in_cpu_task") else "GPU"
        share = host / (kernel + copies) if kernel > 0 else float("nan")
        print(f"| {name} | {d['rows']} | {d['nnz']} | {d['levels']} | {where} | {host:.1f} | {ghost:.1f} | "
              f"{ghost / host:.2f} | {kernel:.1f} | {share:.2f} | {res:.1f} | {sel:.1f} |")
    n = len(auto)
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float("nan")
    print(f"\n{n} triangles: host target {host_ok}, resident target {res_ok}, selection <= one resident solve "
          f"{sel_ok}; GPU path / auto geomean {geo:.2f}")


def resident(outdir):
    auto = load(outdir / "host_paths_auto.jsonl")
    tasks = load(outdir / "host_paths_tasks.jsonl")
    print("| triangle | rows | entries | levels | kernel (µs) | kernel call (µs) | resident inline (µs) |"
          " submit + wait (µs) | resident as a task (µs) | inline - kernel (µs) | target (µs) |"
          " host inline (µs) | host as tasks (µs) | host where |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    met_inline = met_tasks = host_ok = host_ok_tasks = n = 0
    over, gains = [], []
    for name in sorted(auto, key=lambda k: auto[k]["nnz"]):
        d, t = auto[name], tasks.get(name, {})
        kernel = us(d, "kernel_ms")
        if kernel <= 0:
            continue
        n += 1
        res, sub, res_t = us(d, "resident_solve_ms"), us(d, "resident_submit_ms"), us(t, "resident_solve_ms")
        target = 1.1 * kernel + 10
        met_inline += res <= target
        met_tasks += 0 < res_t <= target
        over.append(res - kernel)
        host, host_t, copies = us(d, "solve_ms"), us(t, "solve_ms"), us(d, "copy_ms")
        host_ok += host <= 1.1 * (kernel + copies)
        host_ok_tasks += 0 < host_t <= 1.1 * (kernel + copies)
        if res_t > 0:
            gains.append(res_t / res)
        where = "one core" if d.get("host_solves_in_cpu_task") else "GPU"
        print(f"| {name} | {d['rows']} | {d['nnz']} | {d['levels']} | {kernel:.1f} | {us(d, 'kernel_call_ms'):.1f} | "
              f"{res:.1f} | {sub:.1f} | {res_t:.1f} | {res - kernel:.1f} | {target:.1f} | {host:.1f} | {host_t:.1f} | {where} |")
    over.sort()
    geo = math.exp(sum(map(math.log, gains)) / len(gains)) if gains else float("nan")
    correct = sum(1 for d in auto.values() if d.get("correct")) + sum(1 for d in tasks.values() if d.get("correct"))
    worst = max([d.get("backward_error", 0.0) for d in list(auto.values()) + list(tasks.values())] or [0.0])
    print(f"\n{n} triangles with a GPU kernel: resident target (1.1 x kernel + 10 µs) met inline on {met_inline}, as "
          f"tasks on {met_tasks}; inline - kernel median {over[len(over) // 2] if over else float('nan'):.1f} µs "
          f"(max {over[-1] if over else float('nan'):.1f}); task / inline geomean {geo:.2f}; host target (1.1 x "
          f"(kernel + copies)) inline {host_ok}, as tasks {host_ok_tasks}; correct {correct} of "
          f"{len(auto) + len(tasks)} runs, worst backward error {worst:.1e}")


def lstsq(xs, ys):
    """Relative least squares (each row weighted by 1 / y) by the normal equations."""
    k = len(xs[0])
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in zip(xs, ys):
        w = 1.0 / (y * y)
        for i in range(k):
            b[i] += w * x[i] * y
            for j in range(k):
                a[i][j] += w * x[i] * x[j]
    for i in range(k):  # Gauss-Jordan with partial pivoting
        p = max(range(i, k), key=lambda r: abs(a[r][i]))
        a[i], a[p], b[i], b[p] = a[p], a[i], b[p], b[i]
        for r in range(k):
            if r != i and a[i][i] != 0:
                f = a[r][i] / a[i][i]
                a[r] = [u - f * v for u, v in zip(a[r], a[i])]
                b[r] -= f * b[i]
    return [b[i] / a[i][i] for i in range(k)]


def fit(outdir, margins):
    cpu = load(outdir / "host_paths_cpu.jsonl")
    gpu = load(outdir / "host_paths_gpu.jsonl")
    names = [k for k in gpu if k in cpu]
    if len(names) < 5:
        sys.exit("fit: fewer than 5 triangles timed both ways")
    tc = [us(cpu[k], "solve_ms") for k in names]
    tg = [us(gpu[k], "solve_ms") for k in names]
    xc = [[1.0, cpu[k]["rows"], cpu[k]["nnz"]] for k in names]
    xg = [[1.0, gpu[k]["levels"], gpu[k]["nnz"], gpu[k]["rows"]] for k in names]
    c, g = lstsq(xc, tc), lstsq(xg, tg)
    print("cpu {" + ", ".join(f"{v:.3g}" for v in c) + "}  (c0 + c1 rows + c2 entries, µs)")
    print("gpu {" + ", ".join(f"{v:.3g}" for v in g) + "}  (c0 + c1 levels + c2 entries + c3 rows, µs)")
    pc = [sum(u * v for u, v in zip(c, x)) for x in xc]
    pg = [sum(u * v for u, v in zip(g, x)) for x in xg]
    worst = max(max(p / t, t / p) for p, t in zip(pc, tc))
    print(f"one core's model misses by up to {worst:.2f}x")
    for m in margins:
        picks = [pc[i] <= m * pg[i] for i in range(len(names))]
        wins = sum(1 for i, p in enumerate(picks) if p and tc[i] <= tg[i])
        regressions = [names[i] for i, p in enumerate(picks) if p and tc[i] > tg[i]]
        missed = sum(1 for i, p in enumerate(picks) if not p and tc[i] < tg[i])
        print(f"margin {m}: {sum(picks)} to one core, {wins} faster there, regressions {regressions or 'none'}, "
              f"{missed} left on the GPU that one core solves faster")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["report", "resident", "fit"])
    ap.add_argument("outdir", type=pathlib.Path)
    ap.add_argument("--margin", type=float, action="append", help="fit: margins to try (default 0.6, 0.8, 1.0)")
    a = ap.parse_args()
    if a.what == "report":
        report(a.outdir)
    elif a.what == "resident":
        resident(a.outdir)
    else:
        fit(a.outdir, a.margin or [0.6, 0.8, 1.0])


if __name__ == "__main__":
    main()
