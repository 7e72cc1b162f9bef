"""Runs the Python examples of a Markdown document against the results they show.

Every ```python block runs on its own, in a scratch directory where build/bloom.so is the
extension under test (the examples load "build/bloom", as a user in the repository's root
would). A line `print(...)  # VALUE` states what it prints: the printed text must be VALUE.
A block that states nothing fails, so that an example cannot go unchecked.

Usage: run_python_examples.py EXTENSION DOCUMENT
"""

import contextlib
import io
import os
import pathlib
import re
import sys
import tempfile

BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
STATED = re.compile(r"^\s*print\(.*\)\s+#\s*(.*?)\s*$")


def run_block(code, first_line, extension):
    """The faults of one block, as messages."""
    expected = [m.group(1) for m in map(STATED.match, code.splitlines()) if m]
    if not expected:
        return [f"line {first_line}: the block states no printed value"]
    with tempfile.TemporaryDirectory() as scratch:
        (pathlib.Path(scratch) / "build").mkdir()
        (pathlib.Path(scratch) / "build" / "bloom.so").symlink_to(os.path.abspath(extension))
        out, here = io.StringIO(), os.getcwd()
        os.chdir(scratch)
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, f"line {first_line}", "exec"), {})
        except Exception as error:  # the example failed: say where and why
            return [f"line {first_line}: {type(error).__name__}: {error}"]
        finally:
            os.chdir(here)
    printed = out.getvalue().splitlines()
    if printed != expected:
        return [f"line {first_line}: printed {printed}, the document states {expected}"]
    return []


def main(extension, document):
    text = pathlib.Path(document).read_text(encoding="utf-8")
    faults, blocks = [], 0
    for block in BLOCK.finditer(text):
        blocks += 1
        first_line = text.count("\n", 0, block.start(1)) + 1
        faults += run_block(block.group(1), first_line, extension)
    for fault in faults:
        print(f"{document}: {fault}")
    print(f"run_python_examples: {blocks} blocks of {document}, {len(faults)} faults")
    return 1 if faults or blocks == 0 else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
