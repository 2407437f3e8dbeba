# Sourced by the footprint test scripts: a scratch directory $tmp (removed
# at exit) named after the script, and t DESCRIPTION STATUS, one TAP line
# per check (STATUS 0 = ok; any other sets $fail). The script ends with
# echo "1..$n"; exit $fail.
tmp=${ST_BUILDDIR:-/tmp}/$(basename "$0" .sh).$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
t() { # description, status (0 = ok)
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi
}
