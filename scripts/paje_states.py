#!/usr/bin/env python3
"""Where StarPU's workers and memory managers spent their time, from a paje.trace (a --trace run).

  paje_states.py TRACE_DIR/paje.trace [--split MS,MS,...] [--per-worker]
    --split       cut the run into windows at these times (ms, the trace's clock; e.g. the start of
                  each factorization: tasks.rec's StartTime of its first task) and tally each apart
    --per-worker  one row per worker instead of one per kind (CPU workers summed, CUDA workers summed)

For each window: time (ms, summed over the containers of a kind) in each state: the worker states
(Executing a task, FetchingInput, PushingOutput, Overhead, Scheduling, Sleeping, ...) and the memory
managers' (Allocating, WritingBack, ...), then the data transfers (links) between memory nodes: count
and bytes. Tells a slow task graph that waits on data or allocation from one that computes slowly.
"""
import collections
import re
import sys


def events(path):
    """Yields (event name, {field: value}) for every event line, fields named by its %EventDef."""
    defs, cur = {}, None
    for line in open(path, errors='replace'):
        if line.startswith('%'):
            parts = line[1:].split()
            if parts and parts[0] == 'EventDef':
                cur = (parts[2], parts[1], [])
                defs[parts[2]] = cur
            elif parts and parts[0] == 'EndEventDef':
                cur = None
            elif cur is not None and parts:
                cur[2].append(parts[0])
            continue
        fields = split_fields(line.rstrip('\n'))
        if not fields or fields[0] not in defs:
            continue
        _, name, names = defs[fields[0]]
        yield name, dict(zip(names, fields[1:]))


def split_fields(line):
    """Whitespace-separated fields, double-quoted ones kept whole (without their quotes)."""
    out, i, n = [], 0, len(line)
    while i < n:
        while i < n and line[i] in ' \t':
            i += 1
        if i >= n:
            break
        if line[i] == '"':
            j = line.find('"', i + 1)
            j = n if j < 0 else j
            out.append(line[i + 1:j])
            i = j + 1
        else:
            j = i
            while j < n and line[j] not in ' \t':
                j += 1
            out.append(line[i:j])
            i = j
    return out


def kind_of(name, per_worker):
    if per_worker:
        return name
    for prefix in ('CPU', 'CUDA', 'MEMMANAGER', 'MEMNODE'):
        if name.startswith(prefix):
            return prefix
    return name


def main(argv):
    if not argv or argv[0] in ('-h', '--help'):
        print(__doc__)
        return 0 if argv else 2
    path, cuts, per_worker = argv[0], [], '--per-worker' in argv
    if '--split' in argv:
        cuts = sorted(float(x) for x in argv[argv.index('--split') + 1].split(',') if x)
    values, names = {}, {}
    state = {}  # (container, type) -> stack of (value, start)
    tally = collections.defaultdict(float)  # (window, kind, value) -> ms
    links = collections.defaultdict(lambda: [0, 0.0])  # (window, from kind, to kind) -> count, bytes
    starts = {}

    def window(t):
        return sum(1 for c in cuts if t >= c)

    def add(container, value, t0, t1):
        kind = kind_of(names.get(container, container), per_worker)
        # StarPU defines each task name as a state value: tally tasks by class (assemble_12 -> assemble).
        label = re.sub(r'(_[0-9]+)+$', '', values.get(value, value))
        bounds = [t0] + [c for c in cuts if t0 < c < t1] + [t1]
        for a, b in zip(bounds, bounds[1:]):
            tally[(window(a), kind, label)] += b - a

    for name, f in events(path):
        t = float(f.get('Time', 0)) if name != 'PajeDefineEntityValue' else 0.0
        if name == 'PajeDefineEntityValue':
            values[f['Alias']] = f['Name']
        elif name == 'PajeCreateContainer':
            names[f['Alias']] = f['Name']
        elif name == 'PajeSetState':
            stack = state.setdefault((f['Container'], f['Type']), [])
            if stack:
                add(f['Container'], stack[-1][0], stack[-1][1], t)
            stack[:] = [[f['Value'], t]]
        elif name == 'PajePushState':
            stack = state.setdefault((f['Container'], f['Type']), [])
            if stack:
                add(f['Container'], stack[-1][0], stack[-1][1], t)
            stack.append([f['Value'], t])
        elif name == 'PajePopState':
            stack = state.get((f['Container'], f['Type']), [])
            if stack:
                v, t0 = stack.pop()
                add(f['Container'], v, t0, t)
                if stack:
                    stack[-1][1] = t
        elif name == 'PajeStartLink':
            starts[f['Key']] = (t, f.get('StartContainer', ''), f.get('Value', '0'))
        elif name == 'PajeEndLink' and f['Key'] in starts:
            t0, src, size = starts.pop(f['Key'])
            key = (window(t0), kind_of(names.get(src, src), per_worker),
                   kind_of(names.get(f.get('EndContainer', ''), ''), per_worker))
            links[key][0] += 1
            try:
                links[key][1] += float(size)
            except ValueError:
                pass
    for w in range(len(cuts) + 1):
        rows = sorted((k, v, ms) for (win, k, v), ms in tally.items() if win == w and ms >= 0.05)
        if not rows:
            continue
        lo = cuts[w - 1] if w else None
        hi = cuts[w] if w < len(cuts) else None
        print(f'\n### window {w}: from {lo if lo is not None else "the start"} to {hi if hi is not None else "the end"} ms\n')
        print('| container | state | ms |\n|---|---|---|')
        for k, v, ms in rows:
            print(f'| {k} | {v} | {ms:.1f} |')
        moved = sorted((k, c) for k, c in links.items() if k[0] == w)
        if moved:
            print('\n| transfer | count | MB |\n|---|---|---|')
            for (_, a, b), (count, size) in moved:
                print(f'| {a} -> {b} | {count} | {size / 1e6:.1f} |')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
