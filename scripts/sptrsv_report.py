#!/usr/bin/python3
"""Append an SpTRSV benchmark table to docs/benchmarks.md from bench_sptrsv's JSON lines, and plot
the speedup over cuSPARSE SpSV against the parallel granularity delta (YuenyeungSpTRSV Fig. 7 style,
log x) as a PNG next to the first JSON file.

usage: sptrsv_report.py --device "NVIDIA H100" --command "..." sptrsv_bench.jsonl [MORE.jsonl ...]

Each table row: one matrix, its structure (rows, nnz, levels, delta, longest row), the hetsparse
host analysis, the GPU analysis (input on the device; in solves of the auto scheme) and cuSPARSE's
analysis times, cuSPARSE's solve, the fastest correct hetsparse scheme (plain
variant or AG-SpTRSV scheme) with its GFLOP/s (2 nnz / t), GB/s (12 B/nonzero + 20 B/row), speedup
over cuSPARSE and the measured critical-path bound (levels x one-level latency + bytes / 3 TB/s); the
fastest AG scheme with its preparation time; "auto" by search (its winner, time and selection
seconds) and by the trained model (its pick and that pick's time over the searched best). Schemes
marked wrong, error or unavailable are listed per matrix. Runs with Debian's matplotlib (/usr/bin/python3); the plot is
skipped, with a note, when matplotlib is missing or nothing was timed.
"""
import argparse
import datetime
import json
import math
import pathlib
import sys


def load(paths):
    rows = []
    for path in paths:
        for line in pathlib.Path(path).read_text().splitlines():
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def fmt(v, spec):
    return "—" if v is None or (isinstance(v, float) and not math.isfinite(v)) else format(v, spec)


def table(rows, device, command):
    out = [f"\n## SpTRSV, {datetime.date.today().isoformat()}, {device}\n",
           f"Command: `{command}`\n",
           "Lower triangles, double precision; every solve timed directly with CUDA events (median of "
           f"{rows[0].get('runs', 20) if rows else 20} after {rows[0].get('warmups', 3) if rows else 3} "
           "warm-ups), x NaN-poisoned before each variant's set and checked against ref::sptrsv "
           "(relative error <= 1e-10). best = fastest correct hetsparse variant; bound = levels x one-level "
           "latency (levelset on a 10,000-row chain / 10,000) + minimum bytes / 3 TB/s.\n",
           "| matrix | rows | nnz | levels | δ | rnnz_max | analysis ms | GPU analysis ms (solves) | cuSPARSE analysis ms | cuSPARSE ms "
           "| best scheme | best ms | GFLOP/s | GB/s | speedup | bound ms | best AG (ms, prep ms) "
           "| auto search (ms, select s) | auto model (× search) | not ok |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        v = r.get("variants", {})
        cu = v.get("cusparse", {})
        best = r.get("best_variant")
        b = v.get(best, {}) if best else {}
        bad = ", ".join(f"{k}: {s.get('status')}" for k, s in v.items() if s.get("status") != "ok")
        if not r.get("gpu_available", False):
            bad = "GPU unavailable: " + r.get("reason", "")
        ag = [(s["median_ms"], k, s.get("preprocess_ms")) for k, s in v.items()
              if k.startswith("ag") and s.get("status") == "ok"]
        ag_cell = "—"
        if ag:
            ms, name, prep = min(ag)
            ag_cell = f"`{name}` ({ms:.4f}, {fmt(prep, '.1f')})"
        a_s, a_m = r.get("auto_search", {}), r.get("auto_model", {})
        ga = r.get("gpu_analysis", {})
        ga_cell = "—"
        if ga.get("median_ms"):  # in solves of the auto scheme when known, else of ga's own variant
            per = a_s.get("ms") or ga.get("solve_ms")
            ga_cell = f"{ga['median_ms']:.2f} ({ga['median_ms'] / per:.1f})" if per else f"{ga['median_ms']:.2f}"
            if not ga.get("matches_host", False):
                ga_cell += " DIFFERS"
        search_cell = f"`{a_s['scheme']}` ({fmt(a_s.get('ms'), '.4f')}, {fmt(a_s.get('select_s'), '.2f')})" \
            if a_s.get("scheme") else "—"
        model_cell = f"`{a_m['scheme']}` ({fmt(a_m.get('vs_search'), '.2f')}×)" if a_m.get("scheme") else \
            (a_m.get("note") or "—")
        out.append(
            f"| {r['matrix']} | {r['rows']:,} | {r['nnz']:,} | {r['levels']:,} | {fmt(r.get('delta'), '.3f')} | "
            f"{r.get('rnnz_max', 0):,} | {fmt(r.get('analysis_ms'), '.1f')} | {ga_cell} | "
            f"{fmt(r.get('cusparse_analysis_ms'), '.2f')} | "
            f"{fmt(cu.get('median_ms'), '.4f')} | {best or '—'} | {fmt(b.get('median_ms'), '.4f')} | "
            f"{fmt(b.get('gflops'), '.2f')} | {fmt(b.get('gbps'), '.0f')} | {fmt(r.get('best_speedup_vs_cusparse'), '.2f')} | "
            f"{fmt(r.get('critical_path_bound_ms') or None, '.4f')} | {ag_cell} | {search_cell} | {model_cell} | "
            f"{bad or '—'} |")
    return "\n".join(out) + "\n"


def plot(rows, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print(f"sptrsv_report.py: no plot ({e})", file=sys.stderr)
        return False
    series = {}
    for r in rows:
        d = r.get("delta")
        for name, s in r.get("variants", {}).items():
            if name == "cusparse" or s.get("speedup_vs_cusparse") is None or d is None:
                continue
            series.setdefault(name, []).append((d, s["speedup_vs_cusparse"], r["matrix"]))
        cu = r.get("variants", {}).get("cusparse", {}).get("median_ms")
        for mode in ("auto_search", "auto_model"):
            ms = r.get(mode, {}).get("ms")
            if cu and ms and d is not None:
                series.setdefault(mode.replace("_", " (") + ")", []).append((d, cu / ms, r["matrix"]))
    if not series:
        print("sptrsv_report.py: no plot (no variant was timed against cuSPARSE)", file=sys.stderr)
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    markers = "os^vD<>ph*"
    for i, (name, pts) in enumerate(sorted(series.items())):
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], label=name, marker=markers[i % len(markers)], s=28,
                   alpha=0.8)
    best = [(r["delta"], r["best_speedup_vs_cusparse"], r["matrix"]) for r in rows
            if r.get("best_speedup_vs_cusparse") is not None and r.get("delta") is not None]
    for d, s, m in best:
        ax.annotate(m, (d, s), fontsize=7, xytext=(3, 3), textcoords="offset points")
    deltas = [p[0] for pts in series.values() for p in pts]
    if min(deltas) > 0:
        ax.set_xscale("log")
    else:  # delta can be <= 0 (few rows per level): keep the log look away from zero
        ax.set_xscale("symlog", linthresh=0.01)
    ax.set_yscale("log")
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
    ax.set_xlabel("parallel granularity δ (YuenyeungSpTRSV Eq. 1)")
    ax.set_ylabel("speedup over cuSPARSE SpSV")
    ax.set_title("SpTRSV speedup vs parallel granularity")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(png, dpi=150)
    plt.close(fig)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="+", help="bench_sptrsv JSON-lines files (sptrsv_bench.jsonl)")
    ap.add_argument("--device", required=True, help="device name for the heading, e.g. 'NVIDIA H100'")
    ap.add_argument("--command", required=True, help="the command that produced the results")
    ap.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"),
                    help="Markdown file to append to (default: docs/benchmarks.md)")
    ap.add_argument("--png", help="plot path (default: sptrsv_speedup_vs_delta.png next to the first result)")
    a = ap.parse_args()
    rows = load(a.results)
    if not rows:
        ap.error("no JSON lines in " + ", ".join(a.results))
    out = pathlib.Path(a.out)
    text = out.read_text() if out.exists() else "# hetsparse benchmarks\n"
    png = pathlib.Path(a.png) if a.png else pathlib.Path(a.results[0]).resolve().parent / "sptrsv_speedup_vs_delta.png"
    plotted = plot(rows, png)
    section = table(rows, a.device, a.command)
    if plotted:
        section += f"\nSpeedup over cuSPARSE vs δ: `{png.name}`.\n"
    out.write_text(text + section)
    print(f"appended {len(rows)} rows to {out}" + (f", plot {png}" if plotted else ""))


if __name__ == "__main__":
    main()
