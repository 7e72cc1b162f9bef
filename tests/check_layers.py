"""The layers of ext/ (ARCHITECTURE.md, "The rooms"): each folder of ext/ is a layer, in the order
CMake's BLOOM_LAYERS gives, and a file includes only files of its own layer or of a layer before
it (the files at the top of ext/, the entry point, come last); the include graph has no cycle;
and a call from one room to another goes down that graph.

A room is a file name without its extension (x.c and x.h). Room A includes room B when x.c or
x.h of A has #include "B.h"; A calls B when A's object file needs a symbol B's defines (nm).
A call from A to B is a call up when B cannot be reached from A by includes: A uses B without
depending on it, as a kind that calls back into the table that lists it.

Usage: check_layers.py EXT_DIR LAYERS NM OBJECT...
  LAYERS  the folders of EXT_DIR in order, ;-separated (CMake's BLOOM_LAYERS)
Prints each layer's rooms and their levels, then each include of a layer after the includer's,
each cycle and each call up; exits 1 when there is any.
"""
import os
import re
import subprocess
import sys


def rooms_and_includes(ext, layers):
    """The rooms of ext's layers (and its top), each room's layer index, and the rooms each
    includes."""
    includes, layer_of = {}, {}
    folders = [(i, os.path.join(ext, name)) for i, name in enumerate(layers)]
    folders.append((len(layers), ext))
    for index, folder in folders:
        for name in sorted(os.listdir(folder)):
            stem, extension = os.path.splitext(name)
            if extension not in (".c", ".h"):
                continue
            if layer_of.get(stem, index) != index:
                raise SystemExit("room %s is in two layers" % stem)
            layer_of[stem] = index
            with open(os.path.join(folder, name), encoding="utf-8") as source:
                found = re.findall(r'^#include "([A-Za-z0-9_]+)\.h"', source.read(), re.M)
            includes.setdefault(stem, set()).update(room for room in found if room != stem)
    for room in includes:
        includes[room] &= set(includes)
    return includes, layer_of


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
    ext, layers, nm, objects = argv[1], argv[2].split(";"), argv[3], argv[4:]
    names = layers + ["(top of ext)"]
    includes, layer_of = rooms_and_includes(ext, layers)
    level = levels(includes)
    ups_in_layers = sorted((a, b) for a, targets in includes.items() for b in targets
                           if layer_of[b] > layer_of[a])
    cycles = sorted(room for room in includes if room in reachable(includes, room))
    ups = sorted((a, b) for a, targets in calls(nm, objects).items() for b in targets
                 if b not in reachable(includes, a))
    for index, name in enumerate(names):
        rooms = sorted((r for r in includes if layer_of[r] == index),
                       key=lambda r: (level[r] is None, level[r] or 0, r))
        print("%s: %s" % (name, " ".join("%s(%s)" % (r, level[r]) for r in rooms)))
    for a, b in ups_in_layers:
        print("include up: %s (%s) includes %s (%s)"
              % (a, names[layer_of[a]], b, names[layer_of[b]]))
    for room in cycles:
        print("include cycle through %s" % room)
    for a, b in ups:
        print("call up: %s -> %s" % (a, b))
    print("%d rooms in %d layers, %d includes up, %d include cycles, %d calls up"
          % (len(includes), len(names), len(ups_in_layers), len(cycles), len(ups)))
    return 1 if ups_in_layers or cycles or ups else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
