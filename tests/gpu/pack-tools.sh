#!/usr/bin/env bash
# Packs this machine's Bats (with bats-support, bats-assert, bats-file) and bubblewrap into .tools/, an
# ignored folder the device tool can carry to the GPU machine, which has no package registry.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=$root/.tools
rm -rf "$dest" && mkdir -p "$dest/bats/bin" "$dest/bats/lib/bats" "$dest/bats/libexec" "$dest/bin"
cp /usr/bin/bats "$dest/bats/bin/"
cp -R /usr/lib/bats-core "$dest/bats/lib/"
cp -R /usr/libexec/bats-core "$dest/bats/libexec/"
cp -R /usr/lib/bats/bats-support /usr/lib/bats/bats-assert /usr/lib/bats/bats-file "$dest/bats/lib/bats/"
cp /usr/bin/bwrap "$dest/bin/"
echo "packed into $dest: $(du -sh "$dest" | cut -f1)"
