#!/bin/sh
# The fix note of a removed-allocator finding says exactly what --fix
# writes: for each board, the lines the notes say are written are the lines
# --fix adds, and the lines they say go are the lines it deletes.
# CONFIG_EXPERT=y is named only on a board that does not set it.
set -u
. "$(dirname "$0")/../../lib.sh"
py=${ST_PYTHON:-python3}
command -v "$py" >/dev/null 2>&1 || { echo "skip: no python"; exit 77; }
st_tmpdir t
d=arch/arm/configs
mkdir -p "$t/$d"
cd "$t" || exit 1

# the README's board (no EXPERT, '# CONFIG_SLUB is not set') ...
printf 'CONFIG_SYSVIPC=y\n# CONFIG_SLUB is not set\nCONFIG_SLOB=y\nCONFIG_MODULES=y\n' >$d/noexpert_defconfig
# ... one that has EXPERT already
printf 'CONFIG_EXPERT=y\nCONFIG_SLOB=y\nCONFIG_PRINTK=y\n' >$d/expert_defconfig
# SLAB, and SLOB next to a SLUB_TINY that is set already
printf 'CONFIG_SLAB=y\n# CONFIG_SLUB is not set\nCONFIG_PRINTK=y\n' >$d/slab_defconfig
printf 'CONFIG_EXPERT=y\nCONFIG_SLOB=y\nCONFIG_SLUB_TINY=y\n' >$d/tiny_defconfig
boards="noexpert expert slab tiny"

for b in $boards; do
	f=$d/${b}_defconfig
	"$SLUBTINY" check --no-config --format json $f >$b.json 2>$b.err; st=$?
	[ $st = 1 ] || { echo "FAIL: $b: check exit $st, want 1"; cat $b.out $b.err; fail=1; }
	[ -s $b.err ] && { echo "FAIL: $b: stderr:"; cat $b.err; fail=1; }
	cp $f $b.orig
	"$SLUBTINY" check --no-config --fix $f >$b.fix.out 2>$b.fix.err; st=$?
	[ $st = 0 ] || { echo "FAIL: $b: --fix exit $st, want 0"; cat $b.fix.out $b.fix.err; fail=1; }
	cp $f $b.fixed
	cp $b.orig $f
done

"$py" - $boards <<'EOF' || fail=1
import json, re, sys
bad = []
for b in sys.argv[1:]:
    orig = open(b + ".orig").read().splitlines()
    fixed = open(b + ".fixed").read().splitlines()
    found = [f for f in json.load(open(b + ".json"))["findings"]
             if f["rule"] == "removed-allocator"]
    finding_lines = [f["line"] for f in found]
    notes = [f["hint"] or "" for f in found]
    said_add, said_del = set(), set()
    for f in found:
        m = re.match(r"^(.*); 'slubtiny check --fix' does it$", f["hint"] or "")
        if not m:
            bad.append("%s:%d: the note does not end in what does it: %s" % (b, f["line"], f["hint"]))
            continue
        line, text = f["line"], m.group(1)
        r = re.match(r"replace with (CONFIG_\w+=\w+)(?: and (CONFIG_\w+=\w+))?", text)
        if r:
            said_add.update(x for x in r.groups() if x)
        said_del.add(orig[line - 1])
        said_del.update(re.findall(r"line \d+ \('([^']*)'\)", text))
        said_add.update(re.findall(r"add (CONFIG_\w+=\w+)", text))
    if not finding_lines:
        bad.append("%s: no removed-allocator finding" % b)
    added = set(fixed) - set(orig)
    deleted = set(orig) - set(fixed)
    if said_add != added:
        bad.append("%s: the notes say --fix writes %s, it wrote %s" % (b, sorted(said_add), sorted(added)))
    if said_del != deleted:
        bad.append("%s: the notes say --fix deletes %s, it deleted %s" % (b, sorted(said_del), sorted(deleted)))
    has_expert = "CONFIG_EXPERT=y" in orig
    for n in notes:
        if has_expert and "EXPERT" in n:
            bad.append("%s: a board with CONFIG_EXPERT=y gets told about EXPERT: %s" % (b, n))
for x in bad:
    print("FAIL: " + x)
sys.exit(1 if bad else 0)
EOF
grep -q '"hint":"[^"]*add CONFIG_EXPERT=y' noexpert.json ||
	{ echo "FAIL: noexpert: the note does not say CONFIG_EXPERT=y is added:"; cat noexpert.json; fail=1; }
# =m of a bool: no rule rewrites it and no kernel took it; the note says
# so and names no kernel (it said "Linux 0.0 (the tree's) still has it")
printf 'CONFIG_SLOB=m\n' >$d/slobm_defconfig
cp $d/slobm_defconfig slobm.orig
"$SLUBTINY" check --no-config $d/slobm_defconfig >slobm.out 2>slobm.err; st=$?
[ $st = 1 ] || { echo "FAIL: slobm: check exit $st, want 1"; cat slobm.err; fail=1; }
grep -q "slobm_defconfig:1:1: note: fix: no kernel takes this value, and 'slubtiny check --fix' leaves the line as it is: delete it$" slobm.err &&
	! grep -q 'Linux 0\.0' slobm.err ||
	{ echo "FAIL: slobm: the note:"; cat slobm.err; fail=1; }
"$SLUBTINY" check --no-config --fix $d/slobm_defconfig >slobm.out 2>slobm.err
cmp -s $d/slobm_defconfig slobm.orig || { echo "FAIL: slobm: --fix changed the file"; fail=1; }
# Without a tree the bundled model adds what only a resolution sees (an
# option EXPERT off hides); where the helper cannot start, the rules judge
# alone and one note says what was left out, in every format
printf 'CONFIG_SLUB_TINY=y\n# CONFIG_SYSFS is not set\n' >$d/sysfs_defconfig
"$SLUBTINY" check --no-config $d/sysfs_defconfig >sysfs.out 2>sysfs.err; st=$?
[ $st = 1 ] || { echo "FAIL: sysfs: check exit $st, want 1"; cat sysfs.err; fail=1; }
grep -q "sysfs_defconfig:2:1: warning: # CONFIG_SYSFS is not set has no effect: depends on EXPERT, which is n.*\[ineffective-option\]$" sysfs.err ||
	{ echo "FAIL: sysfs: no ineffective-option from the model:"; cat sysfs.err; fail=1; }
for f in text json; do
	SLUBTINY_PYTHON=/nonexistent "$SLUBTINY" check --no-config --format $f \
		$d/sysfs_defconfig >sysfs.out 2>sysfs.err; st=$?
	[ $st = 1 ] || { echo "FAIL: no model ($f): check exit $st, want 1"; cat sysfs.err; fail=1; }
	grep -q -e '\[ineffective-option\]' -e '"ineffective-option"' sysfs.out sysfs.err &&
		{ echo "FAIL: no model ($f): a model finding"; cat sysfs.err; fail=1; }
	[ "$(grep -c "^slubtiny: check: the bundled Kconfig model was not used (.*): ineffective-option and unknown-symbol were not judged; --srctree judges them$" sysfs.err)" = 1 ] ||
		{ echo "FAIL: no model ($f): not one note:"; cat sysfs.err; fail=1; }
done
exit $fail
