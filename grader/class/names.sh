# names.sh: what a class entry's file name gives, derived one way for grade-class.sh and grade-one.sh: the
# student's name and the folder of the student's results.
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
