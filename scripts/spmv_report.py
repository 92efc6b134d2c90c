#!/usr/bin/env python3
"""Append an SpMV benchmark table to docs/benchmarks.md from `hetsparse spmv --json` results.

usage: spmv_report.py --device "NVIDIA H100" --command "..." RESULT.json [RESULT.json ...]
Each row: hetsparse (products launched inline or as StarPU tasks) next to cuSPARSE and the own kernel
called directly in the same run, alone (median) and back to back (a product's share of the chain),
with GB/s (minimum traffic: 12 B/nonzero + 20 B/row), the ratios to the own kernel and to cuSPARSE
back to back, and the share of the measured 3.0 TB/s device-copy bandwidth (the H100's).
"""
import argparse
import datetime
import json
import pathlib

PEAK_GBS = 3000.0  # H100 device-to-device copy, ../shared/notes/gpu-machine.md

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="+")
    ap.add_argument("--device", required=True)
    ap.add_argument("--command", required=True)
    ap.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"))
    a = ap.parse_args()
    rows = []
    for path in a.results:
        r = json.loads(pathlib.Path(path).read_text().strip().splitlines()[-1])
        cu = r.get("cusparse_direct", {})
        own = r.get("own_kernel_direct", {})
        impl = "cusparse" if "cusparse" in pathlib.Path(path).name else "own"
        nan = float("nan")
        how = "inline" if r.get("inline_products") else "tasks"
        own_chain = own.get("chain_ms") or nan
        rows.append(
            f"| {r['matrix']} | {r['rows']:,} | {r['nnz']:,} | {impl}, {how} | {r['ms_per_product']:.4f} | "
            f"{r['gbs']:.0f} | {own.get('median_ms', nan):.4f} | {own_chain:.4f} | "
            f"{r['ms_per_product'] / own_chain:.2f} | {cu.get('median_ms', nan):.4f} | {cu.get('chain_ms') or nan:.4f} | "
            f"{(cu.get('chain_ms') or nan) / r['ms_per_product']:.2f} | {100 * r['gbs'] / PEAK_GBS:.0f}% | "
            f"{'yes' if r['correct'] else 'NO'} |")
    out = pathlib.Path(a.out)
    text = out.read_text() if out.exists() else "# hetsparse benchmarks\n"
    text += (f"\n## SpMV, {datetime.date.today().isoformat()}, {a.device}\n\n"
             f"Command: `{a.command}`\n\n"
             "hetsparse = the chained products through the runtime, launched inline or as StarPU tasks (1 CUDA "
             "worker, wall time per product over the timed products, data resident on the GPU after a warm-up "
             "product); own/cuSPARSE = the kernel called directly on device data, CUDA events: alone (median) "
             "and back to back (a product's share). GB/s counts 12 B per nonzero + 20 B per row.\n\n"
             "| matrix | rows | nnz | codelet kernel, products | hetsparse ms | hetsparse GB/s | own alone ms | "
             "own back to back ms | hetsparse / own back to back | cuSPARSE alone ms | cuSPARSE back to back ms | "
             "cuSPARSE back to back / hetsparse | of 3.0 TB/s | correct |\n"
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")
    out.write_text(text)
    print("\n".join(rows))

if __name__ == "__main__":
    main()
