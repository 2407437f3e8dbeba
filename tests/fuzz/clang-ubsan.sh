#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The trace targets' corpus under clang's UBSan. gcc's UBSan (the sanitizer
# run of tests/run) does not report arithmetic on a null pointer
# ("applying zero offset to null pointer"), which clang's does: build the
# trace parser and both trace targets with clang here and run them over the
# corpus. Skips (77) when clang is not installed.
set -u
src=$1 build=$2
cc=$(command -v clang || command -v clang-14) || {
	echo "clang-ubsan: no clang: skipped"
	exit 77
}
out=$build/tests/fuzz/clang-ubsan
mkdir -p "$out" || exit 2
# lib/footprint's parser with the whole of lib/common under it (the module
# table of lib/meson.build: footprint uses common only), so that a helper
# moving into common does not break this build.
libsrc="$(echo "$src"/lib/common/*.c) $src/lib/footprint/trace.c $src/lib/footprint/trace_bin.c
	$src/lib/footprint/gen.c"
for fmt in TEXT BIN; do
	exe=$out/fuzz-trace-$fmt
	if ! nice "$cc" -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=undefined \
		-fno-sanitize-recover=all -DST_FUZZ_TRACE_$fmt -I"$build" -I"$src/lib" \
		-o "$exe" $libsrc "$src/tests/fuzz/footprint/fuzz-trace.c" \
		"$src/tests/fuzz/driver.c" -lcjson -lm -pthread 2>"$out/cc-$fmt.log"; then
		cat "$out/cc-$fmt.log" >&2
		echo "clang-ubsan: cannot build the $fmt target" >&2
		exit 2
	fi
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$exe" "$src/tests/fuzz/footprint/corpus" ||
		exit 1
done
