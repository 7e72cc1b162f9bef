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

# npm_cache_dir: where npm_install keeps what it installs, between build directories and runs:
# $BLOOM_NPM_CACHE when set (set and empty: nowhere, each build directory installs its own), else
# $XDG_CACHE_HOME/sqlite-bloom/npm, else ~/.cache/sqlite-bloom/npm. Empty when there is none.
npm_cache_dir() {
    if [ "${BLOOM_NPM_CACHE+set}" = set ]; then
        printf '%s' "$BLOOM_NPM_CACHE"
    elif [ -n "${XDG_CACHE_HOME:-}" ]; then
        printf '%s' "$XDG_CACHE_HOME/sqlite-bloom/npm"
    elif [ -n "${HOME:-}" ]; then
        printf '%s' "$HOME/.cache/sqlite-bloom/npm"
    fi
}

# npm_install NODE NPM WORKDIR WANTED INSTALLED WHAT: makes WORKDIR/node_modules the packages of
# the package.json WANTED, installed by npm, with the file INSTALLED (a path in node_modules that
# only a complete install has) in it; a skip naming WHAT when npm cannot reach its registry.
# An install is kept in the cache (npm_cache_dir) under a key made of NODE's version, its ABI
# (process.versions.modules: native modules such as better-sqlite3's are built for it), the
# platform and the SHA-256 of WANTED, whose versions are pinned; WORKDIR/node_modules is then a
# link to it, and a later run, from any build directory, with the same key installs nothing.
# An install is made in a directory of its own and renamed to its key once npm has succeeded and
# INSTALLED is there, so that a key never names a partial install; flock, when there is one, has a
# second run of the same key wait for the first rather than install it again. Without a cache
# (none, or one that cannot be written), WORKDIR itself is installed into, as before, unless it
# holds WANTED and INSTALLED already. A failed install is installed again the next time.
npm_install() {
    cache=$(npm_cache_dir)
    if [ -n "$cache" ] && mkdir -p "$cache" 2> /dev/null && [ -w "$cache" ]; then
        # shellcheck disable=SC2016 # JavaScript's template literals, not the shell's
        key=$("$1" -e '
            const crypto = require("node:crypto"), fs = require("node:fs");
            const wanted = crypto.createHash("sha256").update(fs.readFileSync(process.argv[1]));
            process.stdout.write(`node${process.versions.node}-abi${process.versions.modules}-` +
                `${process.platform}-${process.arch}-${wanted.digest("hex").slice(0, 16)}`);' \
            "$4") || exit 1
        entry=$cache/$key
        if command -v flock > /dev/null; then
            exec 9> "$cache/$key.lock" && flock 9 || exit 1
        fi
        if [ -f "$entry/node_modules/$5" ]; then
            echo "$6: installed already in $entry (npm's cache of sqlite-bloom's tests)"
        else
            rm -rf "$cache/.$key".* # what a run that failed or was stopped left
            staging=$(mktemp -d "$cache/.$key.XXXXXX") && chmod 755 "$staging" || exit 1
            npm_install_into "$2" "$staging" "$4" "$5" "$6"
            if ! mv -T "$staging" "$entry" 2> /dev/null; then
                rm -rf "$entry" && mv -T "$staging" "$entry" || exit 1
            fi
            echo "$6: kept in $entry for the next runs (BLOOM_NPM_CACHE= to keep nothing)"
        fi
        exec 9>&-
        rm -rf "$3/node_modules"
        ln -s "$entry/node_modules" "$3/node_modules" || exit 1
        cp "$4" "$3/package.json" || exit 1
        return
    fi
    [ -n "$cache" ] && echo "$6: the cache $cache cannot be written: installing into $3"
    [ -L "$3/node_modules" ] && rm -f "$3/node_modules"
    if cmp -s "$4" "$3/package.json" && [ -f "$3/node_modules/$5" ]; then
        echo "$6 already installed in $3"
        return
    fi
    rm -f "$3/package.json"
    npm_install_into "$2" "$3" "$4" "$5" "$6"
}

# npm_install_into NPM DIR WANTED INSTALLED WHAT: npm install of WANTED in DIR, which must leave
# INSTALLED in DIR/node_modules (else DIR's package.json is removed, and the test fails); a skip
# naming WHAT when npm cannot reach its registry.
npm_install_into() {
    registry=$("$1" config get registry)
    if ! npm_reachable "$1"; then
        echo "SKIP: npm cannot reach its registry ($registry), so $5 cannot be installed"
        exit 77
    fi
    cp "$3" "$2/package.json" || exit 1
    echo "npm install in $2 (from $registry)"
    start=$(date +%s)
    if ! (cd "$2" && "$1" install --no-audit --no-fund --loglevel=error) ||
        [ ! -f "$2/node_modules/$4" ]; then
        rm -f "$2/package.json"
        echo "npm install failed"
        exit 1
    fi
    echo "npm install took $(( $(date +%s) - start )) s"
}
