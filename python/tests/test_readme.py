"""The README's Python example runs as printed (from the repository root, as a user would)."""
import contextlib
import io
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_readme_example(matrices_dir):
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    section = text[text.index("\n## Python\n"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len([l for l in code.splitlines() if l.strip()]) <= 10
    code = code.replace("../shared/matrices", matrices_dir)  # the folder the suites were given
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    residual = float(lines[1].split()[-1])
    assert residual < 1e-9
