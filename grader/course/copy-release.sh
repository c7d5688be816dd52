#!/usr/bin/env bash
# Copies the student release's files (files.sh) into DEST, keeping modes and times.
#   copy-release.sh DEST
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$1"
"$here/files.sh" | tar -C "$here/../.." --null -T - -cf - | tar -C "$1" -xf -
