# What the shell tests share; a test sources it first, from its own place:
#	. "$(dirname "$0")/../lib.sh"
#
# fail	0 until bad() says a check failed; a test ends with `exit $fail`
# bad MSG...	print "FAIL: MSG" and set fail=1
# st_tmpdir VAR	a new directory into VAR, removed when the test exits
#		(kept, and said on stderr, when KEEP is set)
# st_atexit CMD	one more command to run when the test exits (a daemon to stop)
# st_expect STATUS WHAT CMD...	run CMD, stdout into $t/out and stderr into
#		$t/err ($t from st_tmpdir t); bad() unless it exits STATUS
# st_git_author	an author and committer for git (the suite runs with no git
#		configuration of the host: a test that commits names its own)
fail=0
bad() { echo "FAIL: $*"; fail=1; }

st_exit_cmds=
st_atexit() {
	st_exit_cmds="$*
$st_exit_cmds"
}
trap 'eval "$st_exit_cmds"' EXIT
# a test killed by a signal cleans up too
trap 'exit 1' HUP INT TERM

st_expect() {
	st_want=$1 st_what=$2; shift 2
	"$@" >"$t/out" 2>"$t/err"; st_got=$?
	[ "$st_got" = "$st_want" ] ||
		{ bad "$st_what: exit $st_got, want $st_want"; cat "$t/out" "$t/err"; }
}

st_git_author() {
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid
	export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.invalid
}

st_tmpdir() {
	st_d=$(mktemp -d "${TMPDIR:-/tmp}/slubtiny-test.XXXXXX") || {
		echo "FAIL: mktemp: cannot create a directory"
		exit 2
	}
	eval "$1=\$st_d"
	if [ -n "${KEEP:-}" ]; then
		echo "kept: $st_d" >&2
	else
		st_atexit "rm -rf '$st_d'"
	fi
}

# st_peak_rss FILE CMD...: run CMD (stdin, stdout and stderr its own) and
# write its peak resident set, in kB, to FILE (the largest of it and the
# children it waited for); returns CMD's exit status. Needs ST_PYTHON.
st_peak_rss() {
	st_rss_file=$1; shift
	"${ST_PYTHON:-python3}" -c '
import resource, subprocess, sys
st = subprocess.call(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=f)
sys.exit(st if st >= 0 else 128 - st)
' "$st_rss_file" "$@"
}
