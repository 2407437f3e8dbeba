#!/bin/sh
# parse + render is byte-identical for every file under arch/*/configs and
# kernel/configs of both Debian kernel trees (6.1 and 6.12).
set -u
tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") extract=$2
n=0
for v in 6.1 6.12; do
	dir=$(sh "$extract" "$v") || exit $?
	files=$(find "$dir/arch" "$dir/kernel" -type f | sort)
	[ -n "$files" ] || { echo "no files in $dir"; exit 1; }
	# shellcheck disable=SC2086
	"$tool" roundtrip $files || exit 1
	n=$((n + $(echo "$files" | wc -l)))
done
echo "round trip ok: $n files"
