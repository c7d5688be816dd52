# sandbox.sh: the one sandbox that every compile and every run of a student's code goes through, on both
# backends, sourced by the grader's scripts. Built with bubblewrap (Debian's bubblewrap package):
#   - no privileges: run as root, the grader first becomes nobody (setpriv) when nobody can reach the
#     workbook; inside, always a user namespace with uid 65534, no capabilities, no_new_privs;
#   - its own PID, network, IPC and UTS namespaces: no network, and every process the code starts ends
#     when the sandbox does (--die-with-parent, the namespace's init gone);
#   - a new session, so no controlling terminal (no /dev/tty, no TIOCSTI into the student's shell); only
#     descriptors 0, 1 and 2 (run_program closes the rest);
#   - a filesystem of what the code needs only: /usr (and its /bin, /lib links), /opt, the dynamic
#     loader's cache, /sys and the GPU's /dev/nvidia* read-only or as devices, private /tmp and /dev/shm
#     with a size limit; then the paths the caller names. Not the repository, not solutions/, not other
#     students' folders.
# Measured on the H200 (facts/gpu-facts.md "Sandboxing"): CUDA, the driver and compute-sanitizer work inside.

# shellcheck shell=bash
WB_SCRATCH_MB=${WB_SCRATCH_MB:-256} # each of /tmp, /dev/shm and a run's own folder

# sandbox_available: bubblewrap can build the sandbox on this machine (tried once per process).
# WB_SANDBOX_WHY says why not. WB_NO_SANDBOX=1 turns it off (a student on their own machine).
sandbox_available() {
  if [ -z "${WB_SANDBOX_STATE:-}" ]; then
    WB_SANDBOX_STATE=yes WB_SANDBOX_WHY=""
    if [ -n "${WB_NO_SANDBOX:-}" ]; then
      WB_SANDBOX_STATE=no WB_SANDBOX_WHY="WB_NO_SANDBOX is set"
    elif ! command -v bwrap >/dev/null 2>&1; then
      WB_SANDBOX_STATE=no WB_SANDBOX_WHY="bubblewrap is not installed (sudo apt-get install -y bubblewrap)"
    else
      local probe=()
      # As root: can nobody reach the workbook (a repository under a 700 home folder cannot be)? If not,
      # bubblewrap runs as root, still in a user namespace without capabilities.
      WB_SANDBOX_AS_NOBODY=1
      sandbox_command probe --ro "$WB_ROOT/kernels" -- /bin/true
      if ! "${probe[@]}" >/dev/null 2>&1; then
        WB_SANDBOX_AS_NOBODY=0
        sandbox_command probe -- /bin/true
        if ! "${probe[@]}" >/dev/null 2>&1; then
          WB_SANDBOX_STATE=no
          WB_SANDBOX_WHY="bubblewrap cannot make a user namespace here (a container without them, or kernel.unprivileged_userns_clone=0)"
        fi
      fi
    fi
    export WB_SANDBOX_STATE WB_SANDBOX_WHY WB_SANDBOX_AS_NOBODY
  fi
  [ "$WB_SANDBOX_STATE" = yes ]
}

# sandbox_base: sets WB_SANDBOX_BASE, the sandbox's arguments that do not depend on the run: namespaces,
# the system's folders read-only, private /tmp and /dev/shm, the GPU's device files.
WB_SANDBOX_BASE=()
sandbox_base() {
  local p d
  WB_SANDBOX_BASE=(--unshare-all --die-with-parent --new-session --cap-drop ALL --uid 65534 --gid 65534
    --ro-bind /usr /usr --proc /proc --dev /dev
    --size "$((WB_SCRATCH_MB << 20))" --tmpfs /tmp --size "$((WB_SCRATCH_MB << 20))" --tmpfs /dev/shm)
  for p in /bin /sbin /lib /lib32 /lib64 /libx32; do
    if [ -L "$p" ]; then
      WB_SANDBOX_BASE+=(--symlink "$(readlink "$p")" "$p")
    elif [ -d "$p" ]; then
      WB_SANDBOX_BASE+=(--ro-bind "$p" "$p")
    fi
  done
  for p in /opt /sys /etc/ld.so.cache /etc/ld.so.conf /etc/ld.so.conf.d /etc/alternatives; do
    [ -e "$p" ] && WB_SANDBOX_BASE+=(--ro-bind "$p" "$p")
  done
  # The GPU: its device files (mode 666), as devices. nvidia-caps is a folder of them.
  for d in /dev/nvidia*; do
    [ -e "$d" ] && WB_SANDBOX_BASE+=(--dev-bind "$d" "$d")
  done
  return 0
}

# sandbox_command ARRAY [--ro PATH]... [--rw PATH]... [--bind FROM TO]... [--scratch DIR] [--file FD PATH] [--chdir DIR] -- CMD...
# Sets the array named ARRAY to the command line that runs CMD in the sandbox. --ro shows PATH read-only,
# --rw writable (both at the same path), --bind FROM at TO writable, --scratch an empty private folder at
# DIR (WB_SCRATCH_MB), --file FD PATH a file at PATH holding what descriptor FD gives (after the --scratch
# it lies in), --chdir the folder CMD starts in. Writable paths must belong to whoever runs CMD:
# sandbox_own gives them to nobody when the grader is root.
sandbox_command() {
  local -n into=$1
  shift
  local args=()
  into=()
  if [ "$EUID" = 0 ] && [ "${WB_SANDBOX_AS_NOBODY:-1}" = 1 ]; then
    into=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all --)
  fi
  # The same for every run: computed once per process (a fork costs more than the program's own start).
  [ ${#WB_SANDBOX_BASE[@]} -gt 0 ] || sandbox_base
  args=("${WB_SANDBOX_BASE[@]}")
  while [ $# -gt 0 ]; do
    case $1 in
      --ro) sandbox_reach "$2"; args+=(--ro-bind "$2" "$2"); shift 2 ;;
      --rw) sandbox_reach "$2"; args+=(--bind "$2" "$2"); shift 2 ;;
      --bind) sandbox_reach "$2"; args+=(--bind "$2" "$3"); shift 3 ;;
      --scratch) args+=(--size "$((WB_SCRATCH_MB << 20))" --tmpfs "$2"); shift 2 ;;
      --file) args+=(--file "$2" "$3"); shift 3 ;;
      --chdir) args+=(--chdir "$2"); shift 2 ;;
      --) shift; break ;;
      *) echo "sandbox_command: unknown option $1" >&2; return 2 ;;
    esac
  done
  # Last: the sandbox's own root (where the folders above the bound paths were made) read-only too, so
  # that only the scratch folders, /tmp, /dev/shm and what --rw or --bind name can be written.
  into+=(bwrap "${args[@]}" --remount-ro / -- "$@")
}

# sandbox_cgroup_open VAR: makes a cgroup v2 group for one run and sets VAR to its folder, where the
# machine lets the grader make one with the memory controller: under WB_CGROUP_BASE (a group set aside
# for grading, e.g. a delegated subtree), else under the grader's own group; either must be writable with
# memory in its cgroup.subtree_control. Limits: WB_MEMORY_MB of memory (everything the program touches,
# shared mappings and tmpfs files included, which RLIMIT_DATA misses), no swap, WB_MAX_PROCS tasks. The
# grader never turns a controller on itself. VAR is empty, and it returns 1, where there is none
# (WB_NO_CGROUP=1).
# shellcheck disable=SC2034 # cg_dir is the caller's variable
sandbox_cgroup_open() {
  local -n cg_dir=$1
  local base group
  cg_dir=""
  # What /sys/fs/cgroup is, asked once per process: every run asks.
  [ -n "${WB_CGROUP_FS:-}" ] || WB_CGROUP_FS=$(stat -f -c %T /sys/fs/cgroup 2>/dev/null || echo none)
  [ -z "${WB_NO_CGROUP:-}" ] && [ "$WB_CGROUP_FS" = cgroup2fs ] || return 1
  base=${WB_CGROUP_BASE:-/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)}
  base=${base%/}
  [ -w "$base" ] && grep -qw memory "$base/cgroup.subtree_control" 2>/dev/null || return 1
  group=$base/cudawb-$BASHPID-$RANDOM
  mkdir "$group" 2>/dev/null || return 1
  if ! echo "$((WB_MEMORY_MB << 20))" >"$group/memory.max" 2>/dev/null; then
    rmdir "$group"
    return 1
  fi
  [ ! -e "$group/memory.swap.max" ] || echo 0 >"$group/memory.swap.max" 2>/dev/null || true
  [ ! -e "$group/pids.max" ] || echo "$WB_MAX_PROCS" >"$group/pids.max" 2>/dev/null || true
  cg_dir=$group
}

# sandbox_cgroup_close DIR: ends every process left in the group, and removes it. Prints "oom" when the
# kernel killed a process of the run for going past its memory limit.
sandbox_cgroup_close() {
  local group=$1 pid tries=0
  [ -n "$group" ] && [ -d "$group" ] || return 0
  if [ -e "$group/cgroup.kill" ]; then
    echo 1 >"$group/cgroup.kill" 2>/dev/null || true
  else
    while read -r pid; do kill -KILL "$pid" 2>/dev/null; done <"$group/cgroup.procs"
  fi
  # Killed processes leave the group as they exit: wait for it to empty (10 s at most).
  while ! grep -qx 'populated 0' "$group/cgroup.events" 2>/dev/null && [ "$tries" -lt 200 ]; do
    sleep 0.05
    tries=$((tries + 1))
  done
  awk '$1 == "oom_kill" && $2 > 0 { print "oom" }' "$group/memory.events" 2>/dev/null
  rmdir "$group" 2>/dev/null && return 0
  # Still busy: one more minute, in the background, so that the grading goes on.
  ( for _ in $(seq 60); do sleep 1; rmdir "$group" 2>/dev/null && exit 0; done ) </dev/null >/dev/null 2>&1 &
}

# sandbox_reach PATH: when the grader is root, bubblewrap runs as nobody and must reach PATH to show it:
# its folders above, inside the workbook or the temporary folder only (a test's private folder is 700),
# get the search bit for others, nothing more. Folders elsewhere are left alone (see sandbox_available).
sandbox_reach() {
  [ "$EUID" = 0 ] && [ "${WB_SANDBOX_AS_NOBODY:-1}" = 1 ] || return 0
  local d=$1 tmp=${TMPDIR:-/tmp}
  # Builtins only, and each folder once per process: a run binds the same few folders as the last.
  while d=${d%/*}; [ -n "$d" ]; do
    [[ $WB_SANDBOX_REACHED == *" $d "* ]] && continue
    case $d/ in
      "$WB_ROOT"/* | "${tmp%/}"/*/*)
        [ -O "$d" ] && [ -n "$(find "$d" -maxdepth 0 ! -perm -o=x)" ] && chmod o+x "$d" ;;
    esac
    WB_SANDBOX_REACHED="$WB_SANDBOX_REACHED$d "
  done
  return 0
}
WB_SANDBOX_REACHED=" "

# sandbox_reached DIR: DIR was just made with mode 755 (mkdir -m 755): the sandbox reaches it, and
# sandbox_reach need not look (a run's folder: a find less for every run).
sandbox_reached() { WB_SANDBOX_REACHED="$WB_SANDBOX_REACHED$1 "; }

# sandbox_own PATH...: when the grader is root, the sandbox runs as nobody: give it these paths (files or
# folders the code may write: a run's report, a build's output folder).
sandbox_own() {
  [ "$EUID" = 0 ] || return 0
  chown -R 65534:65534 "$@"
}
