# The student release's pristine copy: what make dist ships so that, without git, make reset and make book
# still have the exercises and chapters as released (the student's edited files are not them).
# shellcheck shell=bash

# The tar at the release's top, and what it holds: the exercises (make reset restores them) and everything
# the book renders from (chapters, the files their listings include, figures, measured facts).
PRISTINE_TAR=pristine.tar.gz
PRISTINE_PATHS=(exercises lessons kernels book/examples book/figures facts)

# pristine_write DIR: writes DIR/$PRISTINE_TAR from DIR's own copies of PRISTINE_PATHS (reproducibly: sorted,
# no owners, gzip without a time stamp).
pristine_write() {
  local dir=$1 path
  local -a present=()
  for path in "${PRISTINE_PATHS[@]}"; do
    [ ! -e "$dir/$path" ] || present+=("$path")
  done
  tar -C "$dir" --sort=name --owner=0 --group=0 --numeric-owner -cf - "${present[@]}" |
    gzip -n -9 >"$dir/$PRISTINE_TAR"
}

# pristine_restore TAR DEST: replaces DEST's copies of the paths TAR holds by TAR's (a file DEST has and TAR
# has not, under those paths, is removed).
pristine_restore() {
  local tar=$1 dest=$2 path
  for path in "${PRISTINE_PATHS[@]}"; do
    if tar -tzf "$tar" "$path" >/dev/null 2>&1; then
      rm -rf "${dest:?}/$path"
      tar -C "$dest" -xzf "$tar" "$path"
    fi
  done
}
