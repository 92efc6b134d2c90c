#!/usr/bin/env python3
"""Time of a factorization split by task class and device, from StarPU's tasks.rec (a --trace run).

  trace_split.py TRACE_DIR/tasks.rec [--last | --nth K] [--by-task] [--timeline MS]
    --last     from the start of the last factorization of the run (its first assembly task) on
    --nth K    the K-th factorization of the run (1 = the first), up to the start of the next one
    --timeline MS  per window of MS ms: the CPU workers' busy share, the share of the window in which
               at least one CUDA worker runs a task, the mean number of CUDA tasks running, and the
               classes that took most CUDA time there (where the GPU idles, and why)
    --by-task  any run (SpMV, solve, ...): class = the task's name less its trailing part number
               (spmv_pcsc_p0 -> spmv_pcsc, spmv_pcsc_merge stays), device = the memory node the task
               ran on (node 0 is host RAM, the others are GPUs); shows the merges' share of each GPU

Task classes are the prefix of hetsparse's task names (subtree, tpq, dpq, inst, factor). tasks.rec has
no arch field: a worker counts as CUDA when it ran update tasks on a memory node other than host RAM (0).
Prints a markdown table: class | device | tasks | busy ms | share of the device's busy time.
"""
import collections
import re
import sys


def records(path):
    cur = {}
    for line in open(path):
        line = line.rstrip('\n')
        if not line:
            if cur:
                yield cur
            cur = {}
            continue
        key, _, value = line.partition(': ')
        cur[key] = value
    if cur:
        yield cur


def tally(tasks, key_of):
    """The span, (tasks, busy ms) per key_of(task) = (class, place), and busy ms per place."""
    span = max(r['e'] for r in tasks) - min(r['s'] for r in tasks)
    busy = collections.defaultdict(lambda: [0, 0.0])
    per_place = collections.Counter()
    for r in tasks:
        key = key_of(r)
        busy[key][0] += 1
        busy[key][1] += r['e'] - r['s']
        per_place[key[1]] += r['e'] - r['s']
    return span, busy, per_place


def by_task(tasks):
    """Busy time per task class and memory node, for runs that are not factorizations."""
    tasks = [r for r in tasks if not r['Name'].startswith(('_starpu', 'starpu_'))]

    def key_of(r):
        node = r.get('MemoryNode', '0')
        return re.sub(r'_p?\d+$', '', r['Name']), 'host' if node == '0' else f'node {node}'
    span, busy, per_node = tally(tasks, key_of)
    print(f'span {span:.1f} ms, {len(tasks)} tasks\n')
    print('| class | memory node | tasks | busy ms | share of the node | busy / span |')
    print('|---|---|---|---|---|---|')
    for (cls, node), (n, ms) in sorted(busy.items(), key=lambda kv: (kv[0][1], -kv[1][1])):
        print(f'| {cls} | {node} | {n} | {ms:.2f} | {100 * ms / per_node[node]:.0f}% | {100 * ms / span:.0f}% |')
    return 0


def union_ms(intervals, lo, hi):
    """Length of the union of intervals clipped to [lo, hi)."""
    total, end = 0.0, lo
    for s, e in sorted((max(s, lo), min(e, hi)) for s, e in intervals if e > lo and s < hi):
        if e > end:
            total += e - max(s, end)
            end = e
    return total


def timeline(tasks, cuda, window):
    t0 = min(r['s'] for r in tasks)
    t1 = max(r['e'] for r in tasks)
    cpus = {r['WorkerId'] for r in tasks} - cuda
    print(f'{len(cpus)} CPU and {len(cuda)} CUDA workers, {t1 - t0:.1f} ms\n')
    print('| window (ms) | CPU busy | GPU busy (any worker) | CUDA tasks running | top CUDA classes (ms) |')
    print('|---|---|---|---|---|')
    lo = t0
    while lo < t1:
        hi = lo + window
        inside = [r for r in tasks if r['e'] > lo and r['s'] < hi]
        clip = lambda r: min(r['e'], hi) - max(r['s'], lo)
        cpu = sum(clip(r) for r in inside if r['WorkerId'] not in cuda)
        on_gpu = [r for r in inside if r['WorkerId'] in cuda]
        classes = collections.Counter()
        for r in on_gpu:
            classes[r['Name'].split('_')[0]] += clip(r)
        top = ', '.join(f'{c} {ms:.1f}' for c, ms in classes.most_common(3))
        span = min(hi, t1) - lo
        print(f'| {lo - t0:.0f}-{min(hi, t1) - t0:.0f} | {100 * cpu / (span * max(1, len(cpus))):.0f}% | '
              f'{100 * union_ms([(r["s"], r["e"]) for r in on_gpu], lo, hi) / span:.0f}% | '
              f'{sum(clip(r) for r in on_gpu) / span:.1f} | {top} |')
        lo = hi
    return 0


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ('-h', '--help'):
        print(__doc__)
        return 0
    tasks = [r for r in records(sys.argv[1]) if 'StartTime' in r and 'EndTime' in r and 'WorkerId' in r]
    tasks = [r for r in tasks if 'sweep' not in r['Name']]
    for r in tasks:
        r['s'], r['e'] = float(r['StartTime']), float(r['EndTime'])
    tasks.sort(key=lambda r: r['s'])
    # A factorization starts with its first assembly task (or leaf subtree).
    starts = [r['s'] for r in tasks if r['Name'] == 'assemble_0'] or \
        [r['s'] for r in tasks if r['Name'].startswith('subtree_0_')]
    if '--last' in sys.argv and starts:
        tasks = [r for r in tasks if r['s'] >= starts[-1]]
    if '--nth' in sys.argv:
        k = int(sys.argv[sys.argv.index('--nth') + 1])
        if not 1 <= k <= len(starts):
            print(f'trace_split: --nth {k}: the trace holds {len(starts)} factorizations', file=sys.stderr)
            return 2
        end = starts[k] if k < len(starts) else float('inf')
        tasks = [r for r in tasks if starts[k - 1] <= r['s'] < end]
    if '--by-task' in sys.argv:
        return by_task(tasks)
    cuda = {r['WorkerId'] for r in tasks if r['Name'].startswith(('dpq', 'tpq')) and r.get('MemoryNode', '0') != '0'}
    if '--timeline' in sys.argv:
        return timeline(tasks, cuda, float(sys.argv[sys.argv.index('--timeline') + 1]))
    span, busy, per_device = tally(
        tasks, lambda r: (r['Name'].split('_')[0], 'CUDA' if r['WorkerId'] in cuda else 'CPU'))
    print(f'span {span:.1f} ms, {len(tasks)} tasks, CUDA workers {sorted(cuda)}\n')
    print('| class | device | tasks | busy ms | share of device |')
    print('|---|---|---|---|---|')
    for (cls, dev), (n, ms) in sorted(busy.items(), key=lambda kv: (kv[0][1], -kv[1][1])):
        print(f'| {cls} | {dev} | {n} | {ms:.1f} | {100 * ms / per_device[dev]:.0f}% |')
    return 0


if __name__ == '__main__':
    sys.exit(main())
