# SPDX-License-Identifier: GPL-2.0-only
# Sourced by kbuild-diff.sh and vmlinux-diff.sh: size-diff and size on two
# archives against the real bloat-o-meter ($python -S $bom) and GNU size
# (the first on PATH): every bloat-o-meter mode, old->new and new->old,
# and size, size -A, size -t on each archive, byte-identical, with exit
# status 0 and nothing on stderr. A reference that fails is a failure too.
#   archive_cmp OLD NEW SCRATCH LABEL; then $pass and $fail hold the counts.
archive_cmp() {
	_old=$1 _new=$2 _w=$3 _label=$4
	pass=0 fail=0
	for _pair in "$_old $_new" "$_new $_old"; do
		set -- $_pair
		for _m in "" -c -d -t; do
			"$python" -S "$bom" $_m "$1" "$2" >"$_w/ref" 2>"$_w/referr" ||
				{ _ref_failed "bloat-o-meter $_m $1 $2"; continue; }
			"$SLUBTINY" size-diff $_m "$1" "$2" >"$_w/our" 2>"$_w/err"
			_check $? "size-diff $_m $1 $2"
		done
	done
	for _f in "$_old" "$_new"; do
		for _o in "" -A -t; do
			size $_o "$_f" >"$_w/ref" 2>"$_w/referr" ||
				{ _ref_failed "size $_o $_f"; continue; }
			"$SLUBTINY" size $_o "$_f" >"$_w/our" 2>"$_w/err"
			_check $? "size $_o $_f"
		done
	done
}

_ref_failed() {
	fail=$((fail + 1))
	echo "FAIL [$_label] the reference $1 failed: $(head -3 "$_w/referr")"
}

# _check STATUS WHAT: compare $_w/ref with $_w/our
_check() {
	if [ "$1" != 0 ] || [ -s "$_w/err" ]; then
		fail=$((fail + 1))
		echo "FAIL [$_label] $2: exit $1, stderr: $(head -3 "$_w/err")"
	elif ! cmp -s "$_w/ref" "$_w/our"; then
		fail=$((fail + 1))
		echo "MISMATCH [$_label] $2"
		diff "$_w/ref" "$_w/our" | head -10
	else
		pass=$((pass + 1))
	fi
}
