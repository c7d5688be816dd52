#!/usr/bin/env bash
# Makes sure what the grader and the tests need is installed: Bats with bats-support, bats-assert and
# bats-file; with --book what `make book` needs (pandoc, WeasyPrint for the PDF); with --book-tests also what
# book/test.sh checks the book with (Chromium, epubcheck, poppler-utils; it skips, saying so, what is missing).
# bubblewrap sandboxes student programs where it can be installed; Debian's python3 seals make grade's
# results (grader/class/seal.py) and, with binutils, checks lesson code before it is linked (grader/policy/).
# As root on Debian or Ubuntu it installs what is missing; otherwise it prints the exact command.
#   setup.sh [--quiet] [--book] [--book-tests] [--tests]
# --tests: also Debian's Thrust (libthrust-dev, libcub-dev: required, the CPU backend's suite builds with it), and the tools
# some tests use and skip without, saying so (make test): jq, xmllint, zip, unzip,
# git (make grade's outputs and inputs), chromium (class.html rendered), slurm-wlm and munge (SCHEDULER=slurm);
# installed as root, otherwise named in one line, never an error.
set -euo pipefail
quiet=0 book=0 book_tests=0 tests=0
for arg in "$@"; do
  case $arg in
    --quiet) quiet=1 ;;
    --book) book=1 ;;
    --book-tests) book=1 book_tests=1 ;;
    --tests) tests=1 ;;
    *) echo "usage: setup.sh [--quiet] [--book] [--book-tests] [--tests]" >&2; exit 2 ;;
  esac
done

# can_install: as root, with apt-get, and not told to only say what is missing (WB_NO_INSTALL=1: the tests use
# it; so can a root user who prefers to).
can_install() { [ -z "${WB_NO_INSTALL:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }
# apt_install PACKAGE...: installs them, updating the package lists first if the plain install fails.
apt_install() {
  apt-get install -y -qq "$@" >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "$@" >/dev/null 2>&1; }
}

if [ "$tests" = 1 ]; then
  tools=()
  for pair in parallel:parallel jq:jq xmllint:libxml2-utils zip:zip unzip:unzip git:git chromium:chromium sbatch:slurm-wlm munged:munge; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "${pair%%:*}" >/dev/null 2>&1 || tools+=("${pair#*:}")
  done
  if [ ${#tools[@]} -gt 0 ]; then
    if can_install; then
      echo "setup: installing ${tools[*]} (Debian packages some tests use)" >&2
      apt_install "${tools[@]}" || echo "note: could not install ${tools[*]}: the tests that need them skip, saying so" >&2
    else
      echo "note: the tests that need ${tools[*]} skip without them; to run them: sudo apt-get install -y ${tools[*]}" >&2
    fi
  fi
fi

lib_path=${BATS_LIB_PATH:-/usr/lib/bats}
missing=()
command -v bats >/dev/null 2>&1 || missing+=(bats)
[ -x /usr/bin/python3 ] || missing+=(python3)
# the policy on lesson code (grader/policy/) reads the compiled objects with binutils (g++ brings them)
for tool in objdump addr2line c++filt; do command -v "$tool" >/dev/null 2>&1 || { missing+=(binutils); break; }; done
for helper in bats-support bats-assert bats-file; do
  found=0
  IFS=: read -ra dirs <<<"$lib_path"
  for dir in "${dirs[@]}"; do
    [ -f "$dir/$helper/load.bash" ] && found=1
  done
  [ "$found" = 1 ] || missing+=("$helper")
done
# --tests: the CPU backend's conformance suite builds Thrust programs against Debian's Thrust (cpu/README.md)
if [ "$tests" = 1 ] && [ ! -f /usr/include/thrust/version.h ]; then
  missing+=(libthrust-dev libcub-dev)
fi
if [ "$book" = 1 ]; then
  # A command (or file), its Debian package, and "tests" where only book/test.sh needs it. Debian's epubcheck
  # is looked for as its jar: its /usr/bin entry starts only where binfmt_misc runs jars (not in containers).
  while read -r tool package tests; do
    [ -z "$tests" ] || [ "$book_tests" = 1 ] || continue
    command -v "$tool" >/dev/null 2>&1 || [ -e "$tool" ] || missing+=("$package")
  done <<'TOOLS'
pandoc pandoc
weasyprint weasyprint
chromium chromium tests
/usr/share/java/epubcheck.jar epubcheck tests
pdftotext poppler-utils tests
TOOLS
fi
command -v bwrap >/dev/null 2>&1 || optional=(bubblewrap)

if [ ${#missing[@]} -eq 0 ]; then
  if [ -n "${optional:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get install -y -qq bubblewrap >/dev/null 2>&1 || true
  fi
  extra=""
  [ "$book" = 0 ] || extra=" and the book's tools (pandoc, weasyprint)"
  [ "$book_tests" = 0 ] || extra=" and the book's tools (pandoc, weasyprint, chromium, epubcheck, poppler-utils)"
  [ "$quiet" = 1 ] || echo "setup: bats, its helpers, python3$extra are installed"
  exit 0
fi

want=("${missing[@]}" ${optional:+"${optional[@]}"})
if can_install; then
  echo "setup: installing ${want[*]} (Debian packages)" >&2
  if ! apt_install "${want[@]}"; then
    echo "error: could not install ${want[*]}; try: apt-get update && apt-get install -y ${want[*]}" >&2
    exit 1
  fi
  exit 0
fi
echo "error: the grader needs ${missing[*]}, which is not installed. Install it with:" >&2
echo "  sudo apt-get install -y ${want[*]}" >&2
echo "(Bats 1.8.2 or later; the helpers are looked up in BATS_LIB_PATH, now $lib_path)" >&2
exit 1
