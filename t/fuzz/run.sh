#!/bin/sh
# t/fuzz/run.sh -- runs one libFuzzer harness for a bounded time.
#
#   run.sh check t/fuzz/fuzz_NAME.fuzz   (make check: a temporary corpus)
#   run.sh fuzz  t/fuzz/fuzz_NAME        (make fuzz: t/fuzz/corpus-NAME/ of
#                                         the build tree grows run by run)
#
# The seeds t/fuzz/corpus/fuzz_NAME/ and the dictionary fuzz_NAME.dict of
# the source tree are used read-only.  FUZZ_SECONDS bounds the run.  A
# crash, leak, sanitizer report or time-out fails it and leaves the input
# as t/fuzz/crash-NAME-* (reproduce: t/fuzz/fuzz_NAME that-file).
set -eu

mode=$1
harness=${2%.fuzz}
name=$(basename "$harness")
src=${LZ_SRCDIR:-$(dirname "$0")/../..}/t/fuzz
secs=${FUZZ_SECONDS:-12}
dir=$(dirname "$harness")

case $mode in
check)
	work=$(mktemp -d "${TMPDIR:-/tmp}/lz-$name.XXXXXX")
	trap 'rm -rf "$work"' EXIT INT TERM
	;;
fuzz)
	work=$dir/corpus-$name
	mkdir -p "$work"
	;;
*)
	echo "usage: run.sh check|fuzz harness" >&2
	exit 2
	;;
esac

set -- -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -max_len=16384 -print_final_stats=1 -artifact_prefix="$dir/crash-$name-"
if [ -f "$src/$name.dict" ]; then
	set -- "$@" -dict="$src/$name.dict"
fi
echo "run.sh: $name for ${secs}s (seeds $src/corpus/$name)"
# New inputs go to the first directory; the seeds stay untouched.
"$harness" "$@" "$work" "$src/corpus/$name"
