# Shell functions for the tests that run in Node.js (client.*, package.npm, wasm.*), sourced by
# their run scripts. Each exits 77, a skip for ctest, saying why, when what the test needs is
# not there.

# require_node NODE NEEDS [NPM]: Node.js 20 or later (and npm, when given) on the PATH or at
# those paths, else a skip naming NEEDS (what needs node 20: "the package", "chromium.js"...).
require_node() {
    for tool in "$1" ${3:+"$3"}; do
        command -v "$tool" > /dev/null ||
            { echo "SKIP: $tool not found: install Node.js 20 or later${3:+, with npm}"; exit 77; }
    done
    node_version=$("$1" -p 'process.versions.node' 2> /dev/null) || node_version=
    case ${node_version%%.*} in
    '' | *[!0-9]*) echo "SKIP: $1 is not Node.js: install Node.js 20 or later"; exit 77 ;;
    esac
    if [ "${node_version%%.*}" -lt 20 ]; then
        echo "SKIP: node $node_version is too old: $2 need node 20 or later"
        exit 77
    fi
}

# npm_reachable NPM: whether npm can reach its registry (a quick ping, no retry).
npm_reachable() {
    "$1" ping --fetch-retries=0 --fetch-timeout=20000 > /dev/null 2>&1
}

# npm_install NPM WORKDIR WANTED INSTALLED WHAT: installs the package.json WANTED into WORKDIR,
# unless WORKDIR holds it already with the file INSTALLED (a path in its node_modules) there;
# a skip naming WHAT when npm cannot reach its registry. A failed install is installed again the
# next time.
npm_install() {
    if cmp -s "$3" "$2/package.json" && [ -f "$2/node_modules/$4" ]; then
        echo "$5 already installed in $2"
        return
    fi
    registry=$("$1" config get registry)
    if ! npm_reachable "$1"; then
        echo "SKIP: npm cannot reach its registry ($registry), so $5 cannot be installed"
        exit 77
    fi
    rm -f "$2/package.json"
    cp "$3" "$2/package.json" || exit 1
    echo "npm install in $2 (from $registry)"
    start=$(date +%s)
    (cd "$2" && "$1" install --no-audit --no-fund --loglevel=error) || {
        rm -f "$2/package.json"
        echo "npm install failed"
        exit 1
    }
    echo "npm install took $(( $(date +%s) - start )) s"
}
