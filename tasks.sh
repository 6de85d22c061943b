#!/usr/bin/env bash
# The two commands of the README: `./tasks.sh bench` runs every benchmark suite
# (release build, JSON under Results/), `./tasks.sh test` runs the tests.
# `./tasks.sh gate` is CI's regression gate and `./tasks.sh baseline` refreshes
# its baselines. Each first installs the system libraries Faultline links when
# they are missing.
set -euo pipefail
cd "$(dirname "$0")"

SUITES=(Reference Inserts Faulting Fetching Migrations Derived Observing)
# How the gate and its baselines run every suite: the same flags on both sides.
GATE_RUN=(--profile quick --iterations 5 --warmup 1 --quiet)

install_dependencies() {
    local missing=()
    for package in libsqlite3-dev libjemalloc-dev zlib1g-dev pkg-config sqlite3; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

case "${1:-}" in
    bench)
        shift
        install_dependencies
        swift build -c release
        mkdir -p Results
        for suite in "${SUITES[@]}"; do
            swift run -c release --skip-build "$suite" "$@"
        done
        ;;
    test)
        shift
        install_dependencies
        swift test "$@"
        ;;
    gate)
        # CI's regression gate: a quick profile of every suite against the committed
        # baselines. Counter and plan regressions fail; time regressions are printed
        # as advisory, because a shared runner's noise is not the code's.
        install_dependencies
        swift build -c release
        rm -rf Results/ci
        mkdir -p Results/ci
        for suite in "${SUITES[@]}"; do
            swift run -c release --skip-build "$suite" "${GATE_RUN[@]}" --report-dir Results/ci
        done
        status=0
        for suite in "${SUITES[@]}"; do
            swift run -c release --skip-build faultline-bench gate "Results/baseline-$suite.json" \
                "Results/ci/latest-$suite.json" --thresholds Benchmarks/thresholds.json --advisory time \
                || { code=$?; [ "$code" -gt "$status" ] && status=$code; }
        done
        echo "reports: Results/ci/report.md, Results/ci/report.html" >&2
        exit "$status"
        ;;
    baseline)
        # Refreshes the committed baselines with the gate's own command line; see
        # Results/README.md for when (never to silence a regression not understood).
        install_dependencies
        swift build -c release
        for suite in "${SUITES[@]}"; do
            swift run -c release --skip-build "$suite" "${GATE_RUN[@]}" --json "Results/baseline-$suite.json"
        done
        ;;
    *)
        echo "usage: ./tasks.sh bench [suite flags…] | test [swift test flags…] | gate | baseline" >&2
        exit 2
        ;;
esac
