#!/usr/bin/env bash
# lib.sh: the conformance suite's runner, shared by run.sh (CPU backend) and gpu-compare.sh (real nvcc + GPU).
# Each cases/NAME.cu is a test program; lines "// test-KEY: VALUE" in it say how to run and judge it:
#   test-args: A | B        run once per argument (default: once, no argument)
#   test-env: VAR=VALUE     environment for the run (repeatable)
#   test-status: N          expected exit status (default 0; 139 = killed by SIGSEGV)
#   test-stderr: REGEX      a line of stderr (or stdout: kept out of its comparison) must match (repeatable)
#   test-sanitizer: FLAGS   run under compute-sanitizer FLAGS
#   test-report: REGEX      with CUDAWB_REPORT set, a line of the report must match (repeatable)
#   test-compile-fails: REGEX   the build must fail with a matching message
#   test-libs: -lcublas     extra libraries to link
#   test-gpu: skip (why)    not run by gpu-compare.sh
#   test-cpu: skip (why)    not run by run.sh (a fact only a GPU can show)
#   test-arch: sm_NN        build for this architecture instead of the device's own (-arch=native)
#   test-flags: FLAGS       build with these nvcc flags instead (-gencode=...); "none": no architecture flag
#   test-shim: linked (why) gpu-compare.sh links the grader's trace in (nvcc-cpu always does)
# stdout must equal expected/NAME.out; the build must print nothing (the grader's "compiles cleanly").
# Needs only bash, grep, sed and cmp/diff (gpu-compare.sh runs it on the GPU machine).
# CUDAWB_TEST_EXEC: a command to run the programs with (e.g. qemu-aarch64 for a cross-compiled suite).

: "${cases_dir:?the caller sets cases_dir, the folder of the test programs}"

# meta FILE KEY: the values of "// test-KEY:" lines, one per line
meta() {
    sed -n "s|^// test-$2: *||p" "$1"
}

# arch_flags FILE DEFAULT: the architecture flags the case is built with (test-flags, test-arch, else DEFAULT)
arch_flags() {
    local flags arch
    flags=$(meta "$1" flags)
    arch=$(meta "$1" arch)
    if [[ $flags == none ]]; then return 0; fi
    if [[ -n $flags ]]; then echo "$flags"; elif [[ -n $arch ]]; then echo "-arch=$arch"; else echo "$2"; fi
}

passed=0 failed=0 skipped=0

report() {  # report STATUS NAME [DETAIL]
    case $1 in
    ok) passed=$((passed + 1)); echo "ok - $2" ;;
    skip) skipped=$((skipped + 1)); echo "ok - $2 # skip ${3:-}" ;;
    *)
        failed=$((failed + 1))
        echo "not ok - $2"
        local line
        while IFS= read -r line; do echo "#   $line"; done <<<"${3:-}"
        ;;
    esac
    return 0
}

# run_case MODE WORKDIR FILE: builds and runs one test program (all its argument variants)
run_case() {
    local mode=$1 work=$2 src=$3 name
    name=$(basename "$src" .cu)
    local exe=$work/$name expected=$cases_dir/../expected/$name.out
    if meta "$src" "$mode" | grep -q '^skip'; then
        local why
        why=$(meta "$src" "$mode")
        report skip "$name" "${why#skip }"
        return
    fi
    local build_err=$work/$name.build
    local want_fail
    want_fail=$(meta "$src" compile-fails)
    local libs
    libs=$(meta "$src" libs)
    # shellcheck disable=SC2086
    if ! build "$src" "$exe" $libs >"$build_err" 2>&1; then
        if [[ -n $want_fail ]] && grep -Eq -- "$want_fail" "$build_err"; then
            report ok "$name: the build fails with the expected message"
        else
            report fail "$name: build failed" "$(head -20 "$build_err")"
        fi
        return
    fi
    if [[ -n $want_fail ]]; then
        report fail "$name: the build should have failed ($want_fail)"
        return
    fi
    if [[ -s $build_err ]]; then
        report fail "$name: the build is not clean" "$(head -20 "$build_err")"
        return
    fi
    local args_line variants=()
    args_line=$(meta "$src" args)
    if [[ -z $args_line ]]; then variants=(""); else
        IFS='|' read -r -a variants <<<"$args_line"
    fi
    local want_status sanitizer envs=()
    want_status=$(meta "$src" status)
    want_status=${want_status:-0}
    sanitizer=$(meta "$src" sanitizer)
    while IFS= read -r e; do [[ -n $e ]] && envs+=("$e"); done < <(meta "$src" env)
    local v
    for v in "${variants[@]}"; do
        v=${v# }
        v=${v% }
        local label=$name${v:+ $v} out=$work/$name.${v:-run}.out err=$work/$name.${v:-run}.err
        local rep=$work/$name.${v:-run}.report cmd=()
        read -r -a cmd <<<"${CUDAWB_TEST_EXEC:-}"
        cmd+=("$exe")
        [[ -n $v ]] && cmd+=("$v")
        # shellcheck disable=SC2206
        [[ -n $sanitizer ]] && cmd=("$(sanitizer_cmd)" $sanitizer "${cmd[@]}")
        rm -f "$rep" "$err.from-stdout"
        local status=0
        # (the braces keep bash's "Segmentation fault" notice out of the log: some tests expect the signal)
        { env ${envs[@]+"${envs[@]}"} CUDAWB_REPORT="$rep" "${cmd[@]}" >"$out" 2>"$err" </dev/null; } 2>/dev/null ||
            status=$?
        local problems="" seen=("$err")
        if [[ -n $sanitizer ]]; then
            # the real compute-sanitizer may print its findings on stdout: judge them with stderr
            seen+=("$out.tool")
            grep '^=========' "$out" >"$out.tool" || true
            grep -v '^=========' "$out" >"$out.prog" || true
            mv "$out.prog" "$out"
        fi
        # lines a test expects "on stderr" may come on stdout from a real GPU's runtime (device assert,
        # cuBLAS's messages): they are looked for in both, and kept out of the stdout comparison
        local re
        while IFS= read -r re; do
            [[ -z $re ]] && continue
            grep -E -- "$re" "$out" >>"$err.from-stdout" || true
            grep -v -E -- "$re" "$out" >"$out.rest" || true
            mv "$out.rest" "$out"
        done < <(meta "$src" stderr)
        [[ -f $err.from-stdout ]] && seen+=("$err.from-stdout")
        [[ $status == "$want_status" ]] || problems+="exit status $status, expected $want_status"$'\n'
        if ! cmp -s "$out" "$expected"; then
            problems+="stdout differs from expected/$name.out:"$'\n'
            problems+=$(diff "$expected" "$out" 2>/dev/null | head -20 || true)$'\n'
        fi
        while IFS= read -r re; do
            [[ -z $re ]] || cat "${seen[@]}" | grep -Eq -- "$re" || problems+="no stderr line matches: $re"$'\n'
        done < <(meta "$src" stderr)
        while IFS= read -r re; do
            [[ -z $re ]] || grep -Eq -- "$re" "$rep" 2>/dev/null || problems+="no report line matches: $re"$'\n'
        done < <(meta "$src" report)
        if [[ -z $problems ]]; then
            local what
            what=$(sed -n -E 's#^// (fact|kernel feature|compile time|the [a-z ]+): *##p' "$src" | head -1)
            report ok "$label: ${what:0:110}"
        else
            [[ -s $err ]] && problems+="stderr:"$'\n'$(head -10 "$err")
            report fail "$label" "$problems"
        fi
    done
}

# run_suite MODE WORKDIR: every case, then the summary line; returns non-zero on any failure
run_suite() {
    local mode=$1 work=$2 src pattern patterns
    mkdir -p "$work"
    # CASES='GLOB ...' runs only the cases whose names match one of the globs (e.g. CASES='cublas_* graph_*').
    read -r -a patterns <<<"${CASES:-*}"
    for pattern in "${patterns[@]}"; do
        for src in "$cases_dir"/$pattern.cu; do
            [[ -e $src ]] || continue
            run_case "$mode" "$work" "$src"
        done
    done
    echo "$passed passed, $failed failed, $skipped skipped"
    [[ $failed -eq 0 ]]
}
