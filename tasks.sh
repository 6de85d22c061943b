#!/usr/bin/env bash
# The two commands of the README: `./tasks.sh bench` runs every benchmark suite
# (release build, JSON under Results/), `./tasks.sh test` runs the tests.
# `./tasks.sh plugin` builds and runs the model plugin's sample package,
# `./tasks.sh gate` is CI's regression gate, `./tasks.sh baseline` refreshes
# its baselines and `./tasks.sh noise N [--gate]` gates N A/A runs of the timed
# lines (or of the whole gate).
# Each first installs the system libraries Faultline links when they are
# missing.
set -euo pipefail
cd "$(dirname "$0")"

SUITES=(Reference Inserts Faulting Fetching Migrations Derived Observing)
# The suites ThreadSanitizer runs: contexts on several threads, the row cache
# and statement caches under readers and a writer, merges, observers, the soak.
TSAN_SUITES="ConcurrencyTests|RowCacheTests|AutomaticMergeTests|CrossContextTests|QueryGenerationTests|PerformReentrancyTests|ChildContextTests|StaleDerivedRefreshTests|BusyStoreTests|ResultsObservationTests|StatementCacheTests|ReaderPoolTests|SoakTests"
# How the gate and its baselines run every suite: the same flags on both sides.
GATE_RUN=(--profile quick --iterations 5 --warmup 1 --quiet)
# The hottest lines, whose instructions the gate also counts under callgrind
# (suite:filter), with one warm-up and one measured iteration each.
INSTRUCTION_LINES=(
    "Inserts:^(perObject.saveEach.noTriggers|batch.typed.noTriggers) rows=1000$"
    "Fetching:^(fetch.full rows=1000|fetch.byKey lookups=1000 rows=1000)$"
)
INSTRUCTION_RUN=(--profile quick --iterations 1 --warmup 1 --quiet --instructions)
# The lines whose times fail the gate: quiet enough from run to run for a 30 %
# slowdown to stand out, each with the minimum effect its own A/A spread calls
# for (Benchmarks/time-thresholds.json, from `./tasks.sh noise`), and timed
# often enough for a significant result to survive Holm's correction.
# Lines that drift more than that from run to run (the fetches into
# objects or records, one object by key, prefetch, one save per object or at
# the end, lazy faulting: `./tasks.sh noise` measured them) are not here;
# instructions, counters and budgets gate them.
TIMED_LINES=(
    "Inserts:^batch.typed.noTriggers rows=10000$"
    "Faulting:^profile graph=1000x100 keypaths=books order=random strategy=batch1000 touch=0.1$"
    "Derived:^insert.triggers rows=10000$"
)
TIMED_RUN=(--profile quick --iterations 20 --warmup 2 --quiet)

# Runs each "Suite:filter" of the array named by $2 with the suite flags of
# the array named by $3, writing <prefix><Suite>.json.
run_lines() {
    local prefix="$1" entry
    local -n lines="$2" flags="$3"
    for entry in "${lines[@]}"; do
        swift run -c release --skip-build "${entry%%:*}" "${flags[@]}" --filter "${entry#*:}" \
            --json "${prefix}${entry%%:*}.json"
    done
}

# What the gate measures, into directory $1: every suite's quick profile
# (latest-<Suite>.json), the instruction lines and the timed lines.
gate_runs() {
    mkdir -p "$1"
    local suite
    for suite in "${SUITES[@]}"; do
        swift run -c release --skip-build "$suite" "${GATE_RUN[@]}" --report-dir "$1"
    done
    run_lines "$1/instructions-" INSTRUCTION_LINES INSTRUCTION_RUN
    run_lines "$1/timed-" TIMED_LINES TIMED_RUN
}

# Sets `pairs` to what the gate compares for the runs in directory $1, each
# baseline:current:thresholds:advisory. The main runs' five iterations cannot
# make a time check significant, so their times are advisory. The instruction
# runs hold a few lines and one iteration: built-in thresholds (which carry
# the instructions' tolerance). The timed runs fail on time.
gate_pairs() {
    pairs=()
    local suite entry
    for suite in "${SUITES[@]}"; do
        pairs+=("Results/baseline-$suite.json:$1/latest-$suite.json:Benchmarks/thresholds.json:time")
    done
    for entry in "${INSTRUCTION_LINES[@]}"; do
        pairs+=("Results/baseline-instructions-${entry%%:*}.json:$1/instructions-${entry%%:*}.json::time")
    done
    for entry in "${TIMED_LINES[@]}"; do
        pairs+=("Results/baseline-timed-${entry%%:*}.json:$1/timed-${entry%%:*}.json:Benchmarks/time-thresholds.json:")
    done
}

install_dependencies() {
    local missing=()
    # zsh and fish only so the tests can run the completion scripts in those shells.
    for package in libsqlite3-dev libjemalloc-dev zlib1g-dev pkg-config sqlite3 valgrind zsh fish; do
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
        filtered=false
        # Either form: the suites take a flag's value apart or attached with '='.
        for flag in "$@"; do [[ "$flag" == --filter || "$flag" == --filter=* ]] && filtered=true; done
        ran=0
        for suite in "${SUITES[@]}"; do
            # A suite alone refuses a filter that selects none of its lines;
            # across suites, one whose lines the filter misses is skipped.
            if $filtered && ! listed="$(swift run -c release --skip-build "$suite" "$@" --list 2>&1)"; then
                if grep -q "matches no benchmark" <<< "$listed"; then
                    echo "bench: no line of $suite matches the filter; skipped" >&2
                    continue
                fi
            fi
            swift run -c release --skip-build "$suite" "$@"
            ran=$((ran + 1))
        done
        if [ "$ran" -eq 0 ]; then
            echo "bench: the filter matches no line of any suite (${SUITES[*]})" >&2
            exit 2
        fi
        ;;
    test)
        shift
        install_dependencies
        swift test "$@"
        ;;
    plugin)
        # A package whose only model artifact is an .xcdatamodeld: the build-tool
        # plugin generates its classes; the program registers them with
        # validate: true, saves and fetches, and exits 1 on any disagreement.
        install_dependencies
        swift build --package-path Tests/PluginSample --scratch-path .build/plugin-sample
        .build/plugin-sample/debug/Shop
        ;;
    gate)
        # CI's regression gate: a quick profile of every suite against the committed
        # baselines, the instruction counts of the hottest lines and the timed
        # lines. Counter, plan and budget regressions fail, and time regressions
        # of the timed lines; the main runs' times (5 samples) are printed only.
        install_dependencies
        swift build -c release
        rm -rf Results/ci
        gate_runs Results/ci
        status=0
        improved=()
        gate_pairs Results/ci
        for pair in "${pairs[@]}"; do
            IFS=: read -r baseline current thresholds advisory <<< "$pair"
            gate=(faultline-bench gate "$baseline" "$current")
            [ -n "$thresholds" ] && gate+=(--thresholds "$thresholds")
            [ -n "$advisory" ] && gate+=(--advisory "$advisory")
            code=0
            swift run -c release --skip-build "${gate[@]}" || code=$?
            # 3: passed, with counters better than the baseline.
            if [ "$code" -eq 3 ]; then improved+=("$baseline"); code=0; fi
            [ "$code" -gt "$status" ] && status=$code
            # The same verdict as a pull-request comment or step summary.
            swift run -c release --skip-build "${gate[@]}" --format markdown >> Results/ci/gate.md || true
            printf '\n' >> Results/ci/gate.md
        done
        [ -n "${GITHUB_STEP_SUMMARY:-}" ] && cat Results/ci/gate.md >> "$GITHUB_STEP_SUMMARY"
        [ ${#improved[@]} -gt 0 ] && echo "counters improved over ${improved[*]}: refresh with ./tasks.sh baseline" >&2
        echo "reports: Results/ci/report.md, Results/ci/report.html, Results/ci/gate.md" >&2
        exit "$status"
        ;;
    reliability)
        # CI's reliability checks beyond the tests (README, "Reliability"): the
        # soak alone for 60 s, the concurrency suites under ThreadSanitizer,
        # then 60 s of each fuzz target. Any finding fails.
        install_dependencies
        FAULTLINE_SOAK_SECONDS=60 swift test --filter SoakTests
        tsan=(--sanitize=thread --scratch-path .build-tsan)
        FAULTLINE_NO_JEMALLOC=1 swift build --build-tests "${tsan[@]}"
        FAULTLINE_NO_JEMALLOC=1 TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
            swift test --skip-build "${tsan[@]}" --filter "$TSAN_SUITES"
        # From the seeds alone, with a fixed seed and a fixed number of inputs
        # per target: the same amount of fuzzing on a fast machine or a slow
        # one. Not an exact replay (coverage the library's own threads add
        # varies run to run), so a finding prints its input. Exploring
        # further is `fuzz SECONDS`.
        rm -rf .build-fuzz/corpus
        FAULTLINE_FUZZ_SEED=1 "$0" fuzz runs
        ;;
    fuzz)
        # libFuzzer on every parser of untrusted input (Fuzz/Targets): N seconds
        # per target (default 60), or `runs`: each target's fixed number of
        # inputs (about a minute each here, capped at three). Corpora are seeded from
        # the kept inputs under Tests/FuzzRegressionTests/Inputs and, when
        # present, the Core Data fixtures beside the clone (FAULTLINE_FUZZ_SEED
        # 0, the default, picks a seed). A finding (a crash, a hang, or a
        # disagreement the target checks for) fails, is printed, and is left
        # under .build-fuzz/findings/ to keep as a regression input.
        bound="${2:-60}"
        install_dependencies
        # Spelled as one -sanitize=fuzzer,address: given as two --sanitize flags,
        # swiftc was seen to keep AddressSanitizer and drop the coverage
        # instrumentation libFuzzer needs.
        build=(-c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --scratch-path .build-fuzz)
        # product:corpus:runs
        targets=(Predicate:predicate:700000 ModelFile:model-file:150000 CompiledModel:compiled-model:100000
                 StoreFile:store:5000 Report:report:8000 PropertyList:property-list:300000)
        for entry in "${targets[@]}"; do
            FAULTLINE_FUZZ=1 FAULTLINE_NO_JEMALLOC=1 swift build "${build[@]}" --product "Fuzz${entry%%:*}"
        done
        Fuzz/seed-corpora.sh .build-fuzz/corpus
        rm -rf .build-fuzz/findings && mkdir -p .build-fuzz/findings
        status=0
        for entry in "${targets[@]}"; do
            IFS=: read -r product name runs <<< "$entry"
            if [ "$bound" = runs ]; then limit=(-runs="$runs" -max_total_time=180); else limit=(-max_total_time="$bound"); fi
            echo "fuzz ${name}: ${limit[*]}" >&2
            if ! SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 ".build-fuzz/release/Fuzz${product}" \
                ".build-fuzz/corpus/${name}" "${limit[@]}" -seed="${FAULTLINE_FUZZ_SEED:-0}" -timeout=10 -rss_limit_mb=4096 \
                -print_final_stats=1 -artifact_prefix=".build-fuzz/findings/${name}-" 2> ".build-fuzz/${name}.log"; then
                status=1
                echo "fuzz ${name}: FINDING (.build-fuzz/${name}.log); what libFuzzer said, progress lines left out:" >&2
                grep -v -E "^#[0-9]+ " ".build-fuzz/${name}.log" | tail -40 >&2
            fi
            grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)|cov: " ".build-fuzz/${name}.log" | tail -3 >&2
        done
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
        run_lines Results/baseline-instructions- INSTRUCTION_LINES INSTRUCTION_RUN
        run_lines Results/baseline-timed- TIMED_LINES TIMED_RUN
        ;;
    noise)
        # A/A runs: N runs (default 20) of the build the baselines came from,
        # each gated against them by `faultline-bench noise` — the findings
        # noise alone makes, each time-gated line's spread from run to run and
        # the minimum effect it calls for (--suggest writes them under
        # Results/noise/), and whether a line 30 % slower, one more statement
        # per item and a dropped index are caught in every run. By default the
        # runs are of the timed lines; with --gate each run is everything
        # `./tasks.sh gate` runs, gated as it gates, and at most one finding
        # in total is allowed over all of them.
        runs="${2:-20}"
        whole="${3:-}"
        install_dependencies
        swift build -c release
        rm -rf Results/noise && mkdir -p Results/noise
        for run in $(seq -w 1 "$runs"); do
            if [ "$whole" = "--gate" ]; then
                gate_runs "Results/noise/run-$run"
            else
                mkdir -p "Results/noise/run-$run"
                run_lines "Results/noise/run-$run/timed-" TIMED_LINES TIMED_RUN
            fi
        done
        status=0
        findings=0
        gate_pairs 'Results/noise/run-*'
        if [ "$whole" != "--gate" ]; then
            mapfile -t pairs < <(printf '%s\n' "${pairs[@]}" | grep '^Results/baseline-timed-')
        fi
        for pair in "${pairs[@]}"; do
            IFS=: read -r baseline current thresholds advisory <<< "$pair"
            name="$(basename "$baseline" .json)"
            study=(faultline-bench noise "$baseline")
            # The pattern expands here: one report per run.
            study+=($current)
            [ -n "$thresholds" ] && study+=(--thresholds "$thresholds")
            [ -n "$advisory" ] && study+=(--advisory "$advisory")
            study+=(--allow-findings 1 --suggest "Results/noise/suggested-${name#baseline-}.json")
            code=0
            swift run -c release --skip-build "${study[@]}" | tee Results/noise/study.txt.part || code=$?
            [ "$code" -ne 0 ] && status=1
            found="$(sed -n 's/^A\/A findings: \([0-9]*\) .*/\1/p' Results/noise/study.txt.part)"
            findings=$((findings + ${found:-0}))
            cat Results/noise/study.txt.part >> Results/noise/study.txt
            rm Results/noise/study.txt.part
        done
        echo "A/A findings over every study: $findings (at most 1 allowed)"
        [ "$findings" -gt 1 ] && status=1
        exit "$status"
        ;;
    *)
        echo "usage: ./tasks.sh bench [suite flags…] | test [swift test flags…] | plugin | gate | baseline | noise [runs [--gate]] | reliability | fuzz [seconds per target]" >&2
        exit 2
        ;;
esac
