# SPDX-License-Identifier: GPL-2.0-only
# Compare one defconfig's resolution by kc-tool with conf's.
#   awk -v def=DEFCONFIG -v ref=CONF_DOT_CONFIG -v ours=KC_DOT_CONFIG \
#       -v fnd=FINDINGS -v name=LABEL [-v withn=1] [-v known="SYM..."] \
#       -f compare.awk </dev/null
# FINDINGS holds kc-tool's F lines for this file. Prints CONFIG/SET
# mismatch lines and one "STAT name notkept reported" line; a difference
# in a symbol of KNOWN is a "KNOWN name: SYM(conf=..,kc=..)" line instead
# of a mismatch.

function cfgline(l, kv,   m) {
	# "CONFIG_X=v" -> kv["X"]="v"; "# CONFIG_X is not set" -> "n"
	if (l ~ /^CONFIG_[A-Za-z0-9_]+=/) {
		m = index(l, "=")
		kv[substr(l, 8, m - 8)] = substr(l, m + 1)
	} else if (l ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/) {
		sub(/^# CONFIG_/, "", l); sub(/ is not set$/, "", l)
		kv[l] = "n"
	}
}

function sorted_keys(a, out,   k, n, i, j, t) {
	n = 0
	for (k in a) out[++n] = k
	for (i = 2; i <= n; i++) {	# insertion sort: sets are small
		t = out[i]
		for (j = i - 1; j > 0 && out[j] > t; j--) out[j + 1] = out[j]
		out[j + 1] = t
	}
	return n
}

function list(a,   s, n, i, o) {
	n = sorted_keys(a, o); s = ""
	for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") o[i]
	return s
}

BEGIN {
	while ((getline l < def) > 0) {
		sub(/[ \t\r]+$/, "", l)
		if (l ~ /^CONFIG_[A-Za-z0-9_]+=/ || l ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/)
			cfgline(l, want)
	}
	while ((getline l < ref) > 0) cfgline(l, conf)
	while ((getline l < ours) > 0) cfgline(l, mine)
	FS = "\t"
	while ((getline l < fnd) > 0) {
		split(l, f, "\t")
		if (f[1] == "F") rep[f[4]] = 1
	}

	# 1. every symbol's resolved value
	nk = split(known, kl, " ")
	for (i = 1; i <= nk; i++) isknown[kl[i]] = 1
	nd = 0; first = ""
	for (k in conf) if (!(k in mine) || mine[k] != conf[k]) {
		if (k in isknown) {
			printf "KNOWN %s: %s(conf=%s,kc=%s)\n", name, k, conf[k], (k in mine ? mine[k] : "absent")
			continue
		}
		nd++; if (nd <= 5) first = first " " k "(conf=" conf[k] ",kc=" (k in mine ? mine[k] : "absent") ")"
	}
	for (k in mine) if (!(k in conf)) {
		if (k in isknown) {
			printf "KNOWN %s: %s(conf=absent,kc=%s)\n", name, k, mine[k]
			continue
		}
		nd++; if (nd <= 5) first = first " " k "(conf=absent,kc=" mine[k] ")"
	}
	if (nd) printf "CONFIG-MISMATCH %s: %d symbols:%s\n", name, nd, first

	# 2. options conf did not keep == options reported (requested != n;
	# with withn=1 also "is not set" lines, of bool symbols only: one is
	# not kept when conf sets its symbol)
	nk = 0; nr = 0
	for (k in want) {
		if (want[k] == "n" && withn) {
			if ((k in conf) && conf[k] != "n") { notkept[k] = 1; nk++ }
			if (k in rep) { reported[k] = 1; nr++ }
			continue
		}
		if (want[k] == "n" || want[k] ~ /^n/ && !(want[k] ~ /^"/)) continue
		if (!(k in conf) || conf[k] != want[k]) { notkept[k] = 1; nk++ }
		if (k in rep) { reported[k] = 1; nr++ }
	}
	for (k in notkept) if (!(k in reported)) only_conf[k] = 1
	for (k in reported) if (!(k in notkept)) only_kc[k] = 1
	a = list(only_conf); b = list(only_kc)
	if (a != "" || b != "")
		printf "SET-MISMATCH %s: not kept by conf, not reported: [%s]; reported, kept by conf: [%s]\n", name, a, b
	printf "STAT %s %d %d %d\n", name, nk, nr, nd
}
