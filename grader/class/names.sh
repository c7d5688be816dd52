# names.sh: what a class entry's file name gives, derived one way for grade-class.sh and grade-one.sh: the
# student's name and the folder of the student's results; and the folder of a class's runs.
# shellcheck shell=bash

# student_name ENTRY_NAME: the student's name, as bytes: the entry's name minus its archive extension
# (.tar.gz, .tgz, .tar, .zip, .git), so that alice/, alice.zip and alice.tgz are all "alice".
student_name() {
  local name=$1 ext
  for ext in .tar.gz .tgz .tar .zip .git; do
    case $name in *"$ext") [ "$name" = "$ext" ] || name=${name%"$ext"}; break ;; esac
  done
  printf '%s' "$name"
}

# student_folder ENTRY_NAME: the folder of the student's results in a run: the name made safe for a file
# system (at most 40 of A-Za-z0-9_-, not starting with -), a dash, and the whole sha256 of the entry's name
# (64 hex: a shorter one can be made to collide). WB_TEST_FOLDER_HASH_CHARS (tests only) keeps fewer, so
# that a test can make two entries collide and see the collision refused.
student_folder() {
  local safe
  safe=$(printf '%s' "${1%%.*}" | LC_ALL=C tr -c 'A-Za-z0-9_-' '_' | cut -c 1-40)
  printf '%s-%s' "${safe/#-/_}" "$(printf '%s' "$1" | sha256sum | cut -c "1-${WB_TEST_FOLDER_HASH_CHARS:-64}")"
}

# class_runs CLASS_DIR: prints the folder of that class's runs, made when missing: build/class/NAME, NAME the
# class folder's name made plain. Each run of the class is a folder in it (NN-YYYYmmdd-HHMMSS), beside
# "latest" and the course gradebook (course.sh); results are reused only from the same class's runs. Another
# class folder of the same name gets NAME-2 (and so on): class-path in each says whose runs they are.
class_runs() {
  local name base dir n=1
  name=${1%/}
  name=$(printf '%s' "${name##*/}" | LC_ALL=C tr -c 'A-Za-z0-9._-' '_')
  name=${name#.} base=$WB_BUILD/class/${name:-class} dir=$WB_BUILD/class/${name:-class}
  while [ -f "$dir/class-path" ] && [ "$(cat "$dir/class-path")" != "$1" ]; do
    n=$((n + 1)) dir=$base-$n
  done
  mkdir -p "$dir" && [ -f "$dir/class-path" ] || printf '%s\n' "$1" >"$dir/class-path"
  printf '%s\n' "$dir"
}
