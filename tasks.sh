#!/usr/bin/env bash
# The two commands of the README: `./tasks.sh bench` runs every benchmark suite
# (release build, JSON under Results/), `./tasks.sh test` runs the tests.
# Each first installs the system libraries Faultline links when they are missing.
set -euo pipefail
cd "$(dirname "$0")"

SUITES=(Reference Inserts Faulting Fetching Migrations Derived)

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
    *)
        echo "usage: ./tasks.sh bench [suite flags…] | ./tasks.sh test [swift test flags…]" >&2
        exit 2
        ;;
esac
