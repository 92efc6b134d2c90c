#!/usr/bin/env python3
"""Time of a factorization split by task class and device, from StarPU's tasks.rec (a --trace run).

  trace_split.py TRACE_DIR/tasks.rec [--last] [--by-task]
    --last     only the last factorization of the run
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


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ('-h', '--help'):
        print(__doc__)
        return 0
    tasks = [r for r in records(sys.argv[1]) if 'StartTime' in r and 'EndTime' in r and 'WorkerId' in r]
    tasks = [r for r in tasks if 'sweep' not in r['Name']]
    for r in tasks:
        r['s'], r['e'] = float(r['StartTime']), float(r['EndTime'])
    tasks.sort(key=lambda r: r['s'])
    if '--last' in sys.argv:  # a factorization starts with the first leaf subtree
        starts = [r['s'] for r in tasks if r['Name'].startswith('subtree_0_')]
        if starts:
            tasks = [r for r in tasks if r['s'] >= starts[-1]]
    if '--by-task' in sys.argv:
        return by_task(tasks)
    cuda = {r['WorkerId'] for r in tasks if r['Name'].startswith(('dpq', 'tpq')) and r.get('MemoryNode', '0') != '0'}
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
