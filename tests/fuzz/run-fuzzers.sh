#!/bin/bash
# Builds the libFuzzer targets of tests/fuzz and runs each for SECONDS:
#
#   tests/fuzz/run-fuzzers.sh BUILD_DIR SECONDS [TARGET...]
#
# A BUILD_DIR without build.ninja is configured here with clang, the daemon's
# libraries instrumented for coverage and built with ASan and UBSan, so that
# the fuzzers see into the code they call. Only the fuzz targets are built.
#
# Each target mutates a copy of its seed corpus (tests/fuzz/corpus/<target>);
# what it adds and any crash reproducer stay in BUILD_DIR/fuzz-results/<target>
# with its log. One line per target says how many inputs ran and the random
# seed it ran with; the exit status is non-zero when any target crashed,
# leaked, hung or broke an invariant. RESIZED_FUZZ_SEED=N runs every target
# from seed N instead of a random one, to replay a run.
set -euo pipefail

if (($# < 2)); then
    echo "usage: $0 BUILD_DIR SECONDS [TARGET...]" >&2
    exit 2
fi
readonly build_dir=$(realpath -m "$1")
readonly seconds=$2
shift 2
readonly fuzz_dir=$(realpath "$(dirname "${BASH_SOURCE[0]}")")
readonly source_root=$(realpath "$fuzz_dir/../..")

if [[ ! -f $build_dir/build.ninja ]]; then
    CC=clang CXX=clang++ meson setup "$build_dir" "$source_root" \
        -Dcpp_args=-fsanitize=fuzzer-no-link \
        -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi

if (($# > 0)); then
    targets=("$@")
else
    mapfile -t targets < <(cd "$fuzz_dir/corpus" && ls)
fi
# Quiet when it builds; what failed to build, when it does not.
if ! build_log=$(ninja -C "$build_dir" -j 2 "${targets[@]/#/tests/fuzz/fuzz_}" 2>&1); then
    printf '%s\n' "$build_log" >&2
    exit 1
fi

# Undefined behaviour is a crash, not a message scrolling by.
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

# The value of one of libFuzzer's final statistics in a log.
final_stat() {
    sed -n "s/^stat::$1: *//p" "$2" | tail -n 1
}

seed_option=()
if [[ -n ${RESIZED_FUZZ_SEED:-} ]]; then
    seed_option=(-seed="$RESIZED_FUZZ_SEED")
fi

status=0
printf '%-20s %12s %10s %8s %8s %11s %s\n' target inputs-run execs/s corpus rss-mb seed result
for target in "${targets[@]}"; do
    results=$build_dir/fuzz-results/$target
    rm -rf "$results"
    mkdir -p "$results/corpus" "$results/artifacts"
    cp "$fuzz_dir/corpus/$target"/* "$results/corpus/" 2>/dev/null || true
    result=ok
    "$build_dir/tests/fuzz/fuzz_$target" \
        -max_total_time="$seconds" -timeout=10 -print_final_stats=1 "${seed_option[@]}" \
        -artifact_prefix="$results/artifacts/" "$results/corpus" \
        >"$results/fuzz.log" 2>&1 || result=FAILED
    if compgen -G "$results/artifacts/*" >/dev/null; then
        result="FAILED: $(ls "$results/artifacts" | tr '\n' ' ')"
    fi
    [[ $result == ok ]] || status=1
    printf '%-20s %12s %10s %8s %8s %11s %s\n' "$target" \
        "$(final_stat number_of_executed_units "$results/fuzz.log")" \
        "$(final_stat average_exec_per_sec "$results/fuzz.log")" \
        "$(ls "$results/corpus" | wc -l)" \
        "$(final_stat peak_rss_mb "$results/fuzz.log")" \
        "$(sed -n 's/^INFO: Seed: //p' "$results/fuzz.log" | head -n 1)" "$result"
    if [[ $result != ok ]]; then
        grep -E 'ERROR|runtime error|invariant broken|SUMMARY' "$results/fuzz.log" | head -n 5 >&2 || true
    fi
done
exit "$status"
