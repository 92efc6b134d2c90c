#!/usr/bin/env python3
"""Replays the split model's measured tie-break on two bench_sptrsv_split tables (CPU only, no run):
TRUTH's exhaustive medians score the decision; MEASURED's medians of the same triangles stand in for
the live measurement (a table of another call: noisier than a measurement minutes before the solves).
The model's decision is TRUTH's column `decided`; the cost models are the MODEL file's (the linear
models of planners/split_sptrsv_decision.cpp, re-implemented here).
With expected=N the payback is replayed too (planners/split_sptrsv_payback.hpp): a decided split whose
predicted saving x N does not pay back its predicted setup (SetupModel at TRUTH's analysis_s) gives way
to the best predicted unified policy, and the tie-break leaves out a split that cannot pay back even
margin x faster. Besides the per-solve score, an end-to-end one: setup (column <policy>_setup_s, the
solver's whole preprocess) + N x the median, against the policy with the least of it.
  split_tiebreak_replay.py TRUTH.tsv MEASURED.tsv MODEL.tsv [margin=1.5] [max_ms=2.0] [candidates=3] [expected=N] [score=N] [verbose=1]"""
import csv
import math
import sys

POLICIES = ['cpu', 'cpu-levels', 'gpu', 'cpu-gpu', 'cpu-cpu', 'gpu-gpu']


def load(path):
    with open(path) as f:
        return {row['name']: row for row in csv.DictReader(f, delimiter='\t')}


def num(row, key):
    try:
        return float(row[key])
    except (KeyError, ValueError):
        return math.nan


# The defaults of planners::SetupModel and CostModel's GPU-GPU fields (a model file may set them).
SETUP_DEFAULTS = {'setup_cpu_gpu_0': 3.0, 'setup_cpu_gpu_1': 1.9, 'setup_cpu_cpu_0': 2.0, 'setup_cpu_cpu_1': 1.45,
                  'setup_gpu_gpu_0': 3.0, 'setup_gpu_gpu_1': 2.0, 'cost_gpu_gpu': 0.25,
                  'cost_gpu_gpu_iteration': 5e-4, 'cost_gpu_gpu_max_gain': 0.3}


def model(path):
    m = dict(SETUP_DEFAULTS)
    for line in open(path):
        if line.strip() and not line.startswith('#'):
            k, v = line.split('\t')
            m[k] = float(v)
    return m


def way(m, kind, row, pre, family=0, factor=1.0):
    rows, nnz, levels, wide_levels, wide_nnz = (num(row, pre + x) for x in ('rows', 'nnz', 'levels', 'wide_levels', 'wide_nnz'))
    if kind == 'cpu':
        return m['cost_cpu_0'] + m['cost_cpu_1'] * nnz + m['cost_cpu_2'] * rows
    if kind == 'levels':
        return (m['cost_cpu_levels_0'] + m['cost_cpu_levels_1'] * (nnz - wide_nnz) + m['cost_cpu_levels_2'] * wide_nnz +
                m['cost_cpu_levels_3'] * wide_levels)
    return m['cost_gpu_0'] + m['cost_gpu_1'] * rows + m['cost_gpu_2'] * nnz + m['cost_gpu_level_%d' % family] * levels * factor


def predict(m, row):
    family = 0 if math.isnan(num(row, 'gpu_family')) else int(num(row, 'gpu_family'))
    factor = 1.0 if math.isnan(num(row, 'gpu_level_factor')) else num(row, 'gpu_level_factor')
    p = {'cpu': way(m, 'cpu', row, 'all_'), 'cpu-levels': way(m, 'levels', row, 'all_'),
         'gpu': way(m, 'gpu', row, 'all_', family, factor)}
    if num(row, 'cg_level') > 0:
        p['cpu-gpu'] = m['cost_cpu_gpu'] + way(m, 'cpu', row, 'cg_cpu_') + way(m, 'gpu', row, 'cg_gpu_', family)
    if num(row, 'hts_level') > 0:
        p['cpu-cpu'] = m['cost_cpu_cpu'] + way(m, 'levels', row, 'hts_p1_') + way(m, 'cpu', row, 'hts_p2_')
    return p


def setup_ms(m, policy, row):
    if policy not in ('cpu-gpu', 'cpu-cpu', 'gpu-gpu'):
        return 0.0
    key = 'setup_' + policy.replace('-', '_')
    return m[key + '_0'] + m[key + '_1'] * num(row, 'analysis_s') * 1e3


def saving_ms(m, policy, row, p):
    unified = min(p[q] for q in ('cpu', 'cpu-levels', 'gpu') if q in p)
    if policy != 'gpu-gpu':
        return unified - p.get(policy, math.inf)
    return min(m['cost_gpu_gpu_iteration'] * num(row, 'sas_savings'), m['cost_gpu_gpu_max_gain'] * p['gpu']) - m['cost_gpu_gpu']


def timed(row):
    return {p: num(row, p + '_ms') for p in POLICIES if num(row, p + '_ms') == num(row, p + '_ms') and num(row, p + '_error') <= 1e-8}


def main():
    truth, measured, m = load(sys.argv[1]), load(sys.argv[2]), model(sys.argv[3])
    opts = dict(a.split('=') for a in sys.argv[4:])
    margin, max_ms, k = float(opts.get('margin', 1.5)), float(opts.get('max_ms', 2.0)), int(opts.get('candidates', 3))
    expected = float(opts.get('expected', 'inf'))
    score = float(opts.get('score', expected))  # the solves the end-to-end score counts (default: expected)
    n = within = ge1 = n_measured = refused = e2e_within = 0
    for name, row in truth.items():
        t = timed(row)
        unified = [t[p] for p in ('cpu', 'cpu-levels', 'gpu') if p in t]
        if not unified:
            continue
        n += 1
        pick, p = row['decided'], predict(m, row)
        if math.isfinite(expected) and pick in ('cpu-gpu', 'cpu-cpu', 'gpu-gpu'):
            gain = saving_ms(m, pick, row, p)
            if not (gain > 0 and gain * expected >= setup_ms(m, pick, row)):
                pick, refused = min((q for q in ('cpu', 'cpu-levels', 'gpu') if q in p and q in t), key=p.get), refused + 1
        best = min(p.values())
        unified_p = min(p[q] for q in ('cpu', 'cpu-levels', 'gpu') if q in p)
        pays = lambda q: (q not in ('cpu-gpu', 'cpu-cpu') or not math.isfinite(expected) or
                          (unified_p - p[q] / margin) * expected >= setup_ms(m, q, row))
        near = sorted((q for q in p if q != pick and p[q] <= margin * best and pays(q)), key=p.get)
        candidates = [pick] + (['gpu'] if pick == 'gpu-gpu' else []) + [q for q in near if not (pick == 'gpu-gpu' and q == 'gpu')]
        candidates = candidates[:k]
        if len(candidates) > 1 and best <= max_ms and name in measured:
            mm = timed(measured[name])
            known = [c for c in candidates if c in mm and c in t]
            if known:
                pick, n_measured = min(known, key=mm.get), n_measured + 1
        ms = t.get(pick, math.nan)
        within += ms <= 1.05 * min(t.values())
        ge1 += ms == ms and min(unified) / ms >= 1.0
        if not ms <= 1.05 * min(t.values()):
            print('miss: %s %s %.3g ms, fastest %s %.3g ms' % (name, pick, ms, min(t, key=t.get), min(t.values())))
        if math.isfinite(score):  # setup + N solves, against the policy with the least of it
            total = {q: num(row, q + '_setup_s') * 1e3 + score * t[q] for q in t if num(row, q + '_setup_s') == num(row, q + '_setup_s')}
            if pick in total and total:
                e2e_within += total[pick] <= 1.05 * min(total.values())
                if 'verbose' in opts and total[pick] > 1.05 * min(total.values()):
                    print('end-to-end miss: %s %s %.4g ms, least %s %.4g ms' % (name, pick, total[pick], min(total, key=total.get), min(total.values())))
    print('within 5 %%: %d / %d; >= 1.0x the best unified: %d / %d; measured on %d' % (within, n, ge1, n, n_measured))
    if math.isfinite(score):
        print('expected %g solves: %d decided splits refused; setup + %g solves within 5 %% of the least: %d / %d' %
              (expected, refused, score, e2e_within, n))


if __name__ == '__main__':
    main()
