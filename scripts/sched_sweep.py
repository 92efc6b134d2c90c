#!/usr/bin/env python3
"""Scheduler sweep for the sparse Cholesky: factorize the same problem under each StarPU scheduler,
keep one trace per run for ViTE, write a Markdown table and a bar plot.

usage: sched_sweep.py [--hetsparse build/apps/hetsparse] [--generate lap3d:40 | --matrix A.mtx]
                      [--scheds eager,lws,ws,dmda,dmdas,dmdar,heteroprio,prio] [--out sweep_dir]
                      [--no-trace] [-- extra hetsparse options, e.g. --ncpu 8]
"""
import argparse
import json
import pathlib
import subprocess
import sys
import time

SCHEDS = "eager,lws,ws,dmda,dmdas,dmdar,heteroprio,prio"


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hetsparse", default=str(root / "build" / "apps" / "hetsparse"))
    ap.add_argument("--generate", default="lap3d:40")
    ap.add_argument("--matrix")
    ap.add_argument("--scheds", default=SCHEDS)
    ap.add_argument("--out", default="sched_sweep")
    ap.add_argument("--no-trace", action="store_true")
    ap.add_argument("extra", nargs="*", help="more hetsparse cholesky options (after --)")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    source = [a.matrix] if a.matrix else ["--generate", a.generate]
    rows = []
    scheds = a.scheds.split(",")
    for i, sched in enumerate(scheds):
        cmd = [a.hetsparse, "cholesky", *source, "--sched", sched, "--json", *a.extra]
        if not a.no_trace:
            cmd += ["--trace", str(out / f"trace_{sched}")]
        print(f"[{i + 1}/{len(scheds)}] {' '.join(cmd)}", file=sys.stderr, flush=True)
        t0 = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True)
        # Status 2: a usage error (an unknown scheduler, ...), named on stderr's last line.
        if p.returncode not in (0, 1) or not p.stdout.strip():
            rows.append({"scheduler": sched, "error": (p.stderr.strip().splitlines() or ["failed"])[-1]})
            continue
        r = json.loads(p.stdout.strip().splitlines()[-1])
        if r.get("scheduler") != sched:  # hetsparse reports the scheduler StarPU ran: never relabel it
            rows.append({"scheduler": sched, "error": f"StarPU ran '{r.get('scheduler')}' instead"})
            continue
        r["wall_s"] = time.time() - t0
        rows.append(r)
    (out / "sweep.json").write_text(json.dumps(rows, indent=1))
    lines = ["| scheduler | factorize s | GFLOP/s | submit s | wait s | backward error | trace |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['scheduler']} | failed: {r['error']} | | | | | |")
        else:
            lines.append(f"| {r['scheduler']} | {r['factorize_s']:.3f} | {r['gflops']:.2f} | {r['submit_s']:.3f} | "
                         f"{r['wait_s']:.3f} | {r['backward_error']:.1e} | {r.get('trace', '')} |")
    (out / "sweep.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    ok = [r for r in rows if "error" not in r]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(8, 4))
        ax.bar([r["scheduler"] for r in ok], [r["factorize_s"] for r in ok], color="#4477aa")
        ax.set_ylabel("factorize time (s)")
        first = ok[0] if ok else {}
        ax.set_title(f"hetsparse cholesky {first.get('matrix', '')}: {first.get('cpu_workers', '?')} CPU + "
                     f"{first.get('cuda_workers', '?')} CUDA workers")
        fig.tight_layout()
        fig.savefig(out / "sweep.png", dpi=120)
        print(f"plot: {out / 'sweep.png'}", file=sys.stderr)
    except ImportError:
        print("matplotlib missing: no plot (apt-get install python3-matplotlib)", file=sys.stderr)


if __name__ == "__main__":
    main()
