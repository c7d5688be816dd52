#!/usr/bin/env bash
# Checks everything the workbook needs and says, for each thing wrong, how to fix it.
set -uo pipefail
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export WB_ROOT
# shellcheck source=grader/lib/backend.sh
. "$WB_ROOT/grader/lib/backend.sh"
problems=0
ok() { printf '  ok    %-18s %s\n' "$1" "$2"; }
bad() { printf '  FIX   %-18s %s\n        -> %s\n' "$1" "$2" "$3"; problems=$((problems + 1)); }
note() { printf '  note  %-18s %s\n' "$1" "$2"; }
version() { printf '%s' "$(("$1" / 1000)).$(("$1" % 1000 / 10))"; }
# fix NAME: what to do about 35, 100 or 209, in the words lesson 00's program prints (lib/backend.sh)
fix() { toolchain_fix "$1"; }

echo "CUDA"
if command -v nvcc >/dev/null 2>&1; then
  ok nvcc "$(nvcc --version | sed -n 's/.*release \([0-9.]*\), \(V[0-9.]*\).*/\1 (\2)/p') at $(command -v nvcc)"
else
  note nvcc "not installed: the CPU backend (cpu/) can build lesson code without it; for a GPU, install the CUDA toolkit"
fi
query=$(device_query 2>/dev/null; "$WB_BUILD/tools/device-query" --versions 2>/dev/null | head -n 1)
versions=$(grep -m1 '^versions' <<<"$query" || true)
if [ -n "$versions" ]; then
  read -r _ _ runtime _ driver <<<"$versions"
  ok runtime "CUDA $(version "$runtime") (linked statically into every program)"
  if [ "$driver" = 0 ]; then
    note driver "no NVIDIA driver: CUDA calls return 35 (cudaErrorInsufficientDriver); fine without a GPU; for one: $(fix FIX_NO_DRIVER)"
  elif [ "$driver" -lt "$runtime" ]; then
    bad driver "supports CUDA $(version "$driver"), older than the runtime $(version "$runtime"): CUDA calls return 35" \
      "$(fix FIX_NO_DRIVER), or use a CUDA toolkit no newer than $(version "$driver")"
  else
    ok driver "supports CUDA $(version "$driver")"
  fi
fi
line=$(grep -m1 -E '^(ok|error)' <<<"$query" || true)
if [[ $line == ok* ]]; then
  cc=${line##* }
  ok GPU "${line#ok }"
  sm=sm_${cc/./}
  if nvcc --list-gpu-code 2>/dev/null | grep -qx "$sm"; then
    # shellcheck disable=SC2059 # the format is lesson 00's one source of these words
    ok architecture "the grader builds with -arch=native, i.e. $sm, for this GPU (on 209, \"no kernel image is available for execution on the device\": $(printf "$(fix FIX_NO_KERNEL_IMAGE)" "${cc%.*}" "${cc#*.}" "${cc%.*}" "${cc#*.}"))"
  else
    bad architecture "this nvcc cannot build for $sm: programs would fail with \"no kernel image is available for execution on the device\" (209)" \
      "install a CUDA toolkit that supports compute capability $cc"
  fi
  if command -v compute-sanitizer >/dev/null 2>&1; then
    ok compute-sanitizer "$(compute-sanitizer --version 2>/dev/null | tail -n 1)"
  else
    bad compute-sanitizer "not found: the memory-checker steps will be skipped" "install the full CUDA toolkit, or add its bin/ to PATH"
  fi
else
  note GPU "none usable (${line#error }); without BACKEND=gpu the CPU backend runs the programs"
  [[ $line != "error 100 "* ]] || note "no device" "for a GPU: $(fix FIX_NO_DEVICE)"
fi

echo "Grader"
if command -v bats >/dev/null 2>&1; then ok bats "$(bats --version)"; else bad bats "not installed" "make check installs it as root; else: sudo apt-get install -y bats"; fi
for helper in bats-support bats-assert bats-file; do
  if [ -f "${BATS_LIB_PATH:-/usr/lib/bats}/$helper/load.bash" ]; then ok "$helper" "$(dpkg-query -W -f '${Version}' "$helper" 2>/dev/null || echo found)"
  else bad "$helper" "not found in ${BATS_LIB_PATH:-/usr/lib/bats}" "sudo apt-get install -y $helper"; fi
done
# shellcheck source=grader/lib/sandbox.sh
. "$WB_ROOT/grader/lib/sandbox.sh"
if sandbox_available; then
  ok sandbox "bubblewrap $(bwrap --version | cut -d' ' -f2): compiles and runs see only what they need, as nobody, offline"
else
  note sandbox "none: $WB_SANDBOX_WHY; your code runs with your own rights, and make grade refuses a class (UNSAFE=1 overrides)"
fi
if [ -x /usr/bin/python3 ]; then ok python3 "$(/usr/bin/python3 --version 2>&1) (the policy on lesson code; make grade reads submissions and seals results with it)"
else bad python3 "not installed" "the grader checks lesson code and reads class submissions with it: sudo apt-get install -y python3"; fi
if command -v objdump >/dev/null 2>&1 && command -v addr2line >/dev/null 2>&1 && command -v c++filt >/dev/null 2>&1; then
  ok binutils "$(objdump --version | head -n 1) (the policy reads the compiled code with it)"
else bad binutils "objdump, addr2line or c++filt is missing" "the policy on lesson code reads objects with them: sudo apt-get install -y binutils"; fi
if command -v pandoc >/dev/null 2>&1; then ok pandoc "$(pandoc --version | head -n 1) (make book)"
else note pandoc "not installed: make book needs it (sudo apt-get install -y pandoc)"; fi
if cpu_backend_ready; then ok "CPU backend" "cpu/bin/nvcc-cpu"; else note "CPU backend" "not built yet (cpu/)"; fi

echo "Backend"
backend_choose "${BACKEND:-auto}" >/dev/null 2>&1
printf '  BACKEND=%s picks: %s (%s)\n' "${BACKEND:-auto}" "$WB_BACKEND" "$WB_BACKEND_WHY"
[ "$problems" -eq 0 ] && echo "nothing to fix" || echo "$problems thing(s) to fix"
[ "$problems" -eq 0 ]
