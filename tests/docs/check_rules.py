"""Checks every citation of a rule against the rule list of docs/functions.md.

The rules are defined there as "**Rule N (title).**", numbered from 1 without gaps, with
distinct titles. Anywhere in the sources, tests and documents a rule is cited as
"rule N (title)", or several as "rules N (title) and M (title)" ("to", "or" and commas join
them too, and "through" or a dash); a definition cites itself. A citation fails when the rule does not exist, when its title is not the rule's
(the citation says something else), or when it gives no title.

Usage: check_rules.py SOURCE_DIR

Every run first checks that each kind of fault is caught (self_test); this file's own
examples of faults are not scanned.
"""

import pathlib
import re
import sys

RULE_DEFINITION = re.compile(r"^\*\*Rule (\d+) \(([^()]+)\)\.\*\*", re.MULTILINE)
CITATION_START = re.compile(r"\b[Rr]ules?\s+(?=\d)")
CITED_RULE = re.compile(r"(\d+)(\s*\(([^()]*)\))?")
JOINER = re.compile(r"\s*(?:,|\band\b|\bto\b|\bor\b|\bthrough\b|-|\u2013)\s*(?=\d)")
# A line break and the comment leader of the next line ("**", "*", "--", "#", "//"): a
# citation may be wrapped across lines.
LINE_BREAK = re.compile(r"\n[ \t]*(?:\*\*|\*|--|#|//)?[ \t]*")
SCANNED = ("ext/*.c", "ext/*.h", "tests/**/*.c", "tests/**/*.h", "tests/**/*.sql",
           "tests/**/*.py", "tests/**/*.sh", "tests/**/*.js", "tests/**/*.md",
           "tests/**/CMakeLists.txt",
           "sql/*.sql", "sql/*.sh", "docs/*.md", "*.md", "CMakeLists.txt", ".ci/run")


def read_rules(functions_md):
    """The rules of docs/functions.md as {number: title}; raises ValueError if malformed."""
    rules = {}
    for match in RULE_DEFINITION.finditer(functions_md):
        number, title = int(match.group(1)), match.group(2)
        if number in rules or title in rules.values():
            raise ValueError(f"rule {number} ({title}) is defined twice")
        rules[number] = title
    if sorted(rules) != list(range(1, len(rules) + 1)):
        raise ValueError(f"the rules are not numbered 1 to {len(rules)}: {sorted(rules)}")
    return rules


def check_text(text, rules):
    """The faults of the citations in text, as (offset, message)."""
    joined = LINE_BREAK.sub(lambda m: " " * len(m.group()), text)  # offsets kept
    faults = []
    for start in CITATION_START.finditer(joined):
        at = start.end()
        while True:
            cited = CITED_RULE.match(joined, at)
            number, title = int(cited.group(1)), cited.group(3)
            if number not in rules:
                faults.append((at, f"rule {number} does not exist"))
            elif title is None:
                faults.append((at, f"rule {number} is cited without its title: "
                                   f"write rule {number} ({rules[number]})"))
            elif " ".join(title.split()) != rules[number]:
                faults.append((at, f"rule {number} is cited as ({' '.join(title.split())}), "
                                   f"but it is rule {number} ({rules[number]})"))
            joiner = JOINER.match(joined, cited.end())
            if joiner is None:
                break
            at = joiner.end()
    return faults


def self_test():
    """The checker must catch each kind of fault; returns a list of what it missed."""
    rules = {1: "build", 2: "nulls and groups"}
    cases = {
        "see rule 1 (build) and rules 1 (build) to 2 (nulls and\n** groups)": 0,
        "-- Rule 3 (keys): no such rule": 1,
        "/* rule 2 (build): says something else */": 1,
        "rule 1 without a title": 1,
        "rules 1 (build) and 2": 1,
        "rules 1 (build)-3 (keys)": 1,
    }
    return [text for text, expected in cases.items()
            if len(check_text(text, rules)) != expected]


def main(source_dir):
    root = pathlib.Path(source_dir)
    missed = self_test()
    if missed:
        print("check_rules: the self-test was not caught:", missed)
        return 1
    functions = root / "docs" / "functions.md"
    rules = read_rules(functions.read_text(encoding="utf-8"))
    files = sorted({path for pattern in SCANNED for path in root.glob(pattern)
                    if path.is_file() and "corpus" not in path.parts
                    and path.resolve() != pathlib.Path(__file__).resolve()})
    citations, faults = 0, 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for offset, message in check_text(text, rules):
            line = text.count("\n", 0, offset) + 1
            print(f"{path.relative_to(root)}:{line}: {message}")
            faults += 1
        citations += len(CITATION_START.findall(LINE_BREAK.sub(" ", text)))
    print(f"check_rules: {len(rules)} rules, {citations} citations in {len(files)} files, "
          f"{faults} faults")
    return 1 if faults or citations == 0 else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
