#!/usr/bin/env bash
# Makes node_modules' better-sqlite3 load on the `node` first on PATH. Its binary is built for one
# Node.js ABI; each build is kept in the CI cache under its package version and ABI, so switching
# back and forth copies a file instead of compiling SQLite again. The other native modules
# (argon2, @napi-rs) use N-API, which every Node.js version loads.
set -euo pipefail
cd "$(dirname "$0")/../.."
cache=${SOUND_CATALOG_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sound-catalog-ci}
binary=node_modules/better-sqlite3/build/Release/better_sqlite3.node
loads() { node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null; }

abi=$(node -p 'process.versions.modules')
version=$(node -p "require('./node_modules/better-sqlite3/package.json').version")
kept=$cache/better-sqlite3-$version-abi$abi-$(node -p 'process.platform + "-" + process.arch').node
mkdir -p "$cache"

if ! loads; then
  if [ -f "$kept" ]; then
    cp "$kept" "$binary"
  else
    # node-gyp takes the headers from the Node.js build in use (include/node beside its bin/).
    prefix=$(node -p 'path.dirname(path.dirname(process.execPath))')
    [ -d "$prefix/include/node" ] && export npm_config_nodedir=$prefix
    echo "building better-sqlite3 $version for Node.js $(node --version)"
    npm rebuild better-sqlite3 --no-audit --no-fund >/dev/null
  fi
fi
loads || { echo "better-sqlite3 does not load on Node.js $(node --version)" >&2; exit 1; }
if ! [ -f "$kept" ]; then cp "$binary" "$kept.tmp" && mv "$kept.tmp" "$kept"; fi
