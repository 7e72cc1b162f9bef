"""The layers of ext/: its include graph has no cycle, and a call from one room to another goes
down that graph but for the calls listed as allowed (ARCHITECTURE.md, "The rooms").

A room is a file name without its extension (x.c and x.h). Room A includes room B when x.c or
x.h of A has #include "B.h"; A calls B when A's object file needs a symbol B's defines (nm).
A call from A to B is a call up when B cannot be reached from A by includes: A uses B without
depending on it, as a kind that calls back into the table that lists it.

Usage: check_layers.py EXT_DIR NM OBJECT... [--allow A:B ...]
Prints the levels, then each cycle and call up; exits 1 when there is a cycle or a call up that
is not allowed.
"""
import os
import re
import subprocess
import sys


def rooms_and_includes(ext):
    """The rooms of ext and, for each, the rooms it includes."""
    includes = {}
    for name in sorted(os.listdir(ext)):
        stem, extension = os.path.splitext(name)
        if extension not in (".c", ".h"):
            continue
        with open(os.path.join(ext, name), encoding="utf-8") as source:
            found = re.findall(r'^#include "([A-Za-z0-9_]+)\.h"', source.read(), re.M)
        includes.setdefault(stem, set()).update(room for room in found if room != stem)
    for room in includes:
        includes[room] &= set(includes)
    return includes


def calls(nm, objects):
    """For each room with an object file, the rooms whose symbols it uses."""
    defined, needed = {}, {}
    for path in objects:
        room = os.path.basename(path).split(".")[0]
        output = subprocess.run([nm, path], capture_output=True, text=True, check=True).stdout
        for line in output.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                needed.setdefault(room, set()).add(parts[1])
            elif len(parts) == 3 and parts[1] in "TDRB":
                defined[parts[2]] = room
    return {room: {defined[s] for s in symbols if s in defined and defined[s] != room}
            for room, symbols in needed.items()}


def reachable(graph, start):
    """The rooms reachable from start in graph (start excluded unless on a cycle)."""
    seen, stack = set(), list(graph.get(start, ()))
    while stack:
        room = stack.pop()
        if room not in seen:
            seen.add(room)
            stack.extend(graph.get(room, ()))
    return seen


def levels(graph):
    """Each room's level: 0 for one that includes none, else one more than the highest it
    includes; None on a cycle."""
    level = {}

    def of(room, path):
        if room in path:
            return None
        if room not in level:
            below = [of(r, path | {room}) for r in graph[room]]
            level[room] = None if None in below else 1 + max(below, default=-1)
        return level[room]

    for room in graph:
        of(room, frozenset())
    return level


def main(argv):
    allowed = {tuple(a.split(":")) for a in argv[argv.index("--allow") + 1:]} \
        if "--allow" in argv else set()
    argv = argv[:argv.index("--allow")] if "--allow" in argv else argv
    ext, nm, objects = argv[1], argv[2], argv[3:]
    includes = rooms_and_includes(ext)
    level = levels(includes)
    cycles = sorted(room for room in includes if room in reachable(includes, room))
    ups = sorted((a, b) for a, targets in calls(nm, objects).items() for b in targets
                 if b not in reachable(includes, a))
    for depth in range(max((v for v in level.values() if v is not None), default=0) + 1):
        print("level %d: %s" % (depth, " ".join(sorted(r for r, v in level.items() if v == depth))))
    for room in cycles:
        print("include cycle through %s" % room)
    for a, b in ups:
        print("call up: %s -> %s%s" % (a, b, " (allowed)" if (a, b) in allowed else ""))
    bad = len(cycles) + sum((a, b) not in allowed for a, b in ups)
    print("%d rooms, %d include cycles, %d calls up (%d allowed)"
          % (len(includes), len(cycles), len(ups), sum(u in allowed for u in ups)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
