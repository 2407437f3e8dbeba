// SPDX-License-Identifier: GPL-2.0-only
/*
 * slubtiny completion {bash|zsh}: shell completion generated from the
 * command table and the option rows, so it never lags behind them. meson
 * runs it at build time and installs the scripts.
 *
 * What an option's argument completes to comes from its placeholder: DIR a
 * directory, FILE/PATH/TRACE a file name, {a|b|c} one of the words, RULE,...
 * a rule id; anything else nothing. Options whose values live in a table of
 * the code (--arch, --variant) or in the kernel tree on the command line
 * (--defconfig, a tree's ARCH) are listed in values[] below.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "check/check.h"
#include "cli.h"
#include "common/array.h"
#include "common/error.h"
#include "footprint/trace.h"
#include "boot/boot.h"
#include "kernel/kernel.h"

enum arg_kind { ARG_NONE, ARG_DIR, ARG_FILE, ARG_WORDS, ARG_RULES, ARG_LIST, ARG_TREE_ARCH,
		ARG_TREE_DEFCONFIG };

/* The variants build and report run by default: defconfigs/ of the data directory. */
static const char *const *build_variants(void)
{
	static const char *none[] = { NULL };
	/* Read once, kept to the end of the process: completion prints once and exits. */
	static const char **names;
	struct st_error e = { 0 };
	struct st_variant *v = NULL;
	char dir[PATH_MAX];
	size_t n = 0, i;

	if (names)
		return names;
	if (st_build_datadir(dir, sizeof(dir), &e) || st_build_variants(dir, &v, &n, &e))
		return none;
	names = calloc(n + 1, sizeof(*names));
	for (i = 0; names && i < n; i++)
		names[i] = strdup(v[i].name);
	st_build_variants_free(v, n);
	return names ? names : none;
}

/* check --baseline's own words (a git revision is typed out) */
static const char *const *baseline_words(void)
{
	static const char *const words[] = { "auto", "none", NULL };

	return words;
}

/*
 * Options whose values come from the code's own tables (ARG_LIST), or from
 * the --srctree on the command line: its arch/ directories, its defconfigs.
 */
static const struct value_src {
	const char *cmd, *opt;
	enum arg_kind kind;
	const char *const *(*words)(void);
} values[] = {
	{ "build", "arch", ARG_LIST, st_build_known_arches },
	{ "report", "arch", ARG_LIST, st_build_known_arches },
	{ "build", "variant", ARG_LIST, build_variants },
	{ "report", "variant", ARG_LIST, build_variants },
	{ "kernel", "variant", ARG_LIST, st_kernel_variants },
	{ "footprint", "arch", ARG_LIST, st_boot_arches },
	{ "check", "baseline", ARG_LIST, baseline_words },
	{ "kernel", "arch", ARG_TREE_ARCH, NULL },
	{ "migrate", "arch", ARG_TREE_ARCH, NULL },
	{ "check", "arch", ARG_TREE_ARCH, NULL },
	{ "kernel", "defconfig", ARG_TREE_DEFCONFIG, NULL },
	{ "footprint", "defconfig", ARG_TREE_DEFCONFIG, NULL },
};

static const struct value_src *value_src(const char *cmd, const struct st_opt *o)
{
	size_t i;

	for (i = 0; o->name && i < ARRAY_SIZE(values); i++)
		if (!strcmp(values[i].cmd, cmd) && !strcmp(values[i].opt, o->name))
			return &values[i];
	return NULL;
}

/* The words of a NULL-terminated table, separated by spaces. */
static void print_list(const char *const *w)
{
	for (; w && *w; w++)
		printf("%s%s", *w, w[1] ? " " : "");
}

static enum arg_kind kind_of(const char *cmd, const struct st_opt *o)
{
	const struct value_src *v = value_src(cmd, o);
	const char *arg = o->arg;

	if (v)
		return v->kind;
	if (!arg)
		return ARG_NONE;
	if (arg[0] == '{')
		return ARG_WORDS;
	if (strstr(arg, "RULE"))
		return ARG_RULES;
	if (strstr(arg, "DIR"))
		return ARG_DIR;
	if (strstr(arg, "FILE") || strstr(arg, "PATH") || strstr(arg, "TRACE"))
		return ARG_FILE;
	return ARG_NONE;
}

/* The words of "{a|b|c}" separated by spaces. */
static void print_words(const char *arg)
{
	const char *p;

	for (p = arg + 1; *p && *p != '}'; p++)
		putchar(*p == '|' ? ' ' : *p);
}

static void print_rules(void)
{
	int i;

	for (i = 0; i < ST_RULE_COUNT; i++)
		printf("%s%s", i ? " " : "", st_check_rules[i].id);
}

/*
 * Whether a command of @c before @s (its own commands share a completion
 * case) has option @o's name: "footprint" lists --svg and --json once.
 */
static bool said_before(const struct cmd *c, const struct cmd *s, const struct st_opt *o)
{
	const struct cmd *t;
	const struct st_opt *p;

	for (t = c ? c->subs : NULL; t && t != s; t++)
		for (p = t->opts; p->name || p->shrt; p++)
			if (p->name && o->name ? !strcmp(p->name, o->name) : p->shrt == o->shrt)
				return true;
	return false;
}

static void bash_opts(const struct cmd *c, const struct cmd *s, const struct st_opt *opts)
{
	const struct st_opt *o;

	for (o = opts; o && (o->name || o->shrt); o++) {
		if (said_before(c, s, o))
			continue;
		if (o->shrt)
			printf("-%c ", o->shrt);
		if (o->name)
			printf("--%s ", o->name);
	}
}

/* case patterns "cmd:--opt|cmd:-o" for options whose argument completes. */
static void bash_args(const struct cmd *c, const struct cmd *s, const struct st_opt *opts)
{
	const char *cmd = c->name;
	const struct st_opt *o;

	for (o = opts; o && (o->name || o->shrt); o++) {
		enum arg_kind k = kind_of(cmd, o);

		if (!o->arg || said_before(c, s, o))
			continue;
		printf("\t");
		if (o->name)
			printf("%s:--%s", cmd, o->name);
		if (o->shrt)
			printf("%s%s:-%c", o->name ? "|" : "", cmd, o->shrt);
		printf(")\n\t\t");
		switch (k) {
		case ARG_DIR:
			printf("COMPREPLY=($(compgen -d -- \"$cur\"))");
			break;
		case ARG_FILE:
			printf("COMPREPLY=($(compgen -f -- \"$cur\"))");
			break;
		case ARG_WORDS:
			printf("COMPREPLY=($(compgen -W \"");
			print_words(o->arg);
			printf("\" -- \"$cur\"))");
			break;
		case ARG_RULES:
			printf("COMPREPLY=($(compgen -W \"");
			print_rules();
			printf("\" -- \"${cur##*,}\"))");
			break;
		case ARG_LIST:
			printf("COMPREPLY=($(compgen -W \"");
			print_list(value_src(cmd, o)->words());
			printf("\" -- \"$cur\"))");
			break;
		case ARG_TREE_ARCH:
			printf("COMPREPLY=($(compgen -W \"$(_slubtiny_tree_arches)\" -- \"$cur\"))");
			break;
		case ARG_TREE_DEFCONFIG:
			printf("COMPREPLY=($(compgen -W \"$(_slubtiny_tree_defconfigs)\" -- \"$cur\")"
			       " $(compgen -f -- \"$cur\"))");
			break;
		default:
			printf("COMPREPLY=()");
			break;
		}
		printf("\n\t\treturn ;;\n");
	}
}

static void bash(void)
{
	const struct cmd *c, *s;

	printf("# bash completion for slubtiny, generated by 'slubtiny completion bash'\n"
	       "# The kernel tree of the command line (--srctree DIR), if any.\n"
	       "_slubtiny_srctree()\n{\n"
	       "\tlocal i w\n"
	       "\tfor ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do\n"
	       "\t\tw=${COMP_WORDS[i]}\n"
	       "\t\tcase $w in\n"
	       "\t\t--srctree) w=${COMP_WORDS[i+1]} ;;\n"
	       "\t\t--srctree=*) w=${w#--srctree=} ;;\n"
	       "\t\t*) continue ;;\n"
	       "\t\tesac\n"
	       "\t\tprintf '%%s' \"${w/#\\~/$HOME}\"\n"
	       "\t\treturn\n"
	       "\tdone\n}\n"
	       "# Its ARCHes (arch/*/Kconfig).\n"
	       "_slubtiny_tree_arches()\n{\n"
	       "\tlocal t d\n"
	       "\tt=$(_slubtiny_srctree)\n"
	       "\t[ -n \"$t\" ] || return\n"
	       "\tfor d in \"$t\"/arch/*/Kconfig; do\n"
	       "\t\t[ -e \"$d\" ] || continue\n"
	       "\t\td=${d%%/Kconfig}\n"
	       "\t\tprintf '%%s ' \"${d##*/}\"\n"
	       "\tdone\n}\n"
	       "# What --defconfig takes: the default target, and the tree's defconfigs\n"
	       "# and config fragments (make NAME), tinyconfig when it has tiny.config.\n"
	       "_slubtiny_tree_defconfigs()\n{\n"
	       "\tlocal t f\n"
	       "\tprintf '%%s ' %s\n"
	       "\tt=$(_slubtiny_srctree)\n"
	       "\t[ -n \"$t\" ] || return\n"
	       "\tfor f in \"$t\"/arch/*/configs/*_defconfig \"$t\"/kernel/configs/*.config \\\n"
	       "\t\t\"$t\"/arch/*/configs/*.config; do\n"
	       "\t\t[ -e \"$f\" ] && printf '%%s ' \"${f##*/}\"\n"
	       "\tdone\n"
	       "\t[ -e \"$t/kernel/configs/tiny.config\" ] && printf 'tinyconfig '\n"
	       "}\n\n"
	       "_slubtiny()\n{\n", ST_KERNEL_DEFCONFIG);
	printf("\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	       "\tlocal cmd=${COMP_WORDS[1]} opts\n\n"
	       "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	       "\t\tCOMPREPLY=($(compgen -W \"");
	for (c = st_commands; c->name; c++)
		printf("%s ", c->name);
	printf("--help --version\" -- \"$cur\"))\n\t\treturn\n\tfi\n");
	printf("\tcase $cmd:$prev in\n");
	for (c = st_commands; c->name; c++) {
		if (!c->subs)
			bash_args(c, NULL, c->opts);
		for (s = c->subs; s && s->name; s++)
			bash_args(c, s, s->opts);
	}
	printf("\thelp:*)\n\t\tCOMPREPLY=($(compgen -W \"");
	for (c = st_commands; c->name; c++)
		printf("%s ", c->name);
	printf("\" -- \"$cur\"))\n\t\treturn ;;\n"
	       "\tcompletion:*)\n\t\tCOMPREPLY=($(compgen -W \"bash zsh\" -- \"$cur\"))\n"
	       "\t\treturn ;;\n\tesac\n");
	printf("\tcase $cmd in\n");
	for (c = st_commands; c->name; c++) {
		if (!c->opts)
			continue;
		printf("\t%s)\n\t\topts=\"", c->name);
		if (!c->subs)
			bash_opts(NULL, NULL, c->opts);
		for (s = c->subs; s && s->name; s++)
			bash_opts(c, s, s->opts);
		printf("-h --help");
		for (s = c->subs; s && s->name; s++)
			printf(" %s", s->name);
		printf("\" ;;\n");
	}
	printf("\t*)\n\t\treturn ;;\n\tesac\n");
	/* a command's own commands as its first word; footprint gen's SHAPE */
	for (c = st_commands; c->name; c++) {
		if (!c->subs)
			continue;
		printf("\tif [[ $cmd == %s && $cur != -* ]]; then\n"
		       "\t\tif [ \"$COMP_CWORD\" -eq 2 ]; then\n"
		       "\t\t\tCOMPREPLY=($(compgen -W \"", c->name);
		for (s = c->subs; s->name; s++)
			printf("%s%s", s->name, s[1].name ? " " : "");
		printf("\" -- \"$cur\"))\n");
		if (!strcmp(c->name, "footprint")) {
			printf("\t\telif [[ ${COMP_WORDS[2]} == gen ]]; then\n"
			       "\t\t\tCOMPREPLY=($(compgen -W \"");
			print_list(st_trace_shapes);
			printf("\" -- \"$cur\"))\n");
		}
		printf("\t\tfi\n"
		       "\t\treturn\n"
		       "\tfi\n");
	}
	printf(""
	       "\tif [[ $cur == -* ]]; then\n"
	       "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	       "\telse\n"
	       "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	       "\tfi\n}\n"
	       "complete -o filenames -F _slubtiny slubtiny\n");
}

/* @s with the characters zsh's _arguments treats specially escaped. */
static void zsh_text(const char *s)
{
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", stdout);
		else if (strchr("[]:\\", *s))
			printf("\\%c", *s);
		else
			putchar(*s);
	}
}

static void zsh_action(const char *cmd, const struct st_opt *o)
{
	switch (kind_of(cmd, o)) {
	case ARG_DIR:
		printf(":%s:_files -/", "directory");
		break;
	case ARG_FILE:
		printf(":%s:_files", "file");
		break;
	case ARG_WORDS:
		printf(":%s:(", "value");
		print_words(o->arg);
		printf(")");
		break;
	case ARG_RULES:
		printf(":rule:_sequence compadd - ");
		print_rules();
		break;
	case ARG_LIST:
		printf(":%s:(", "value");
		print_list(value_src(cmd, o)->words());
		printf(")");
		break;
	case ARG_TREE_DEFCONFIG:
		printf(":%s:_files", "defconfig");
		break;
	default:
		if (o->arg)
			printf(":%s: ", "value");
		break;
	}
}

static void zsh_opts(const struct cmd *c, const struct cmd *s, const struct st_opt *opts)
{
	const char *cmd = c->name;
	const struct st_opt *o;

	for (o = opts; o && (o->name || o->shrt); o++) {
		if (said_before(s ? c : NULL, s, o))
			continue;
		if (o->shrt) {
			printf(" \\\n\t\t\t'-%c[", o->shrt);
			zsh_text(o->help);
			printf("]");
			zsh_action(cmd, o);
			printf("'");
		}
		if (o->name) {
			printf(" \\\n\t\t\t'--%s[", o->name);
			zsh_text(o->help);
			printf("]");
			zsh_action(cmd, o);
			printf("'");
		}
	}
}

static void zsh(void)
{
	const struct cmd *c, *s;

	printf("#compdef slubtiny\n# zsh completion for slubtiny, generated by 'slubtiny completion zsh'\n"
	       "_slubtiny() {\n\tlocal -a cmds\n\tcmds=(\n");
	for (c = st_commands; c->name; c++) {
		printf("\t\t'%s:", c->name);
		zsh_text(c->help);
		printf("'\n");
	}
	printf("\t)\n\tif (( CURRENT == 2 )); then\n\t\t_describe command cmds\n\t\treturn\n\tfi\n"
	       "\tshift words\n\t(( CURRENT-- ))\n\tcase $words[1] in\n");
	for (c = st_commands; c->name; c++) {
		if (!c->opts)
			continue;
		printf("\t%s)\n\t\t_arguments -s", c->name);
		if (!c->subs)
			zsh_opts(c, NULL, c->opts);
		for (s = c->subs; s && s->name; s++)
			zsh_opts(c, s, s->opts);
		printf(" \\\n\t\t\t'(- *)'{-h,--help}'[show the help]'");
		if (c->subs) {
			printf(" \\\n\t\t\t'1:command:(");
			for (s = c->subs; s->name; s++)
				printf("%s%s", s->name, s[1].name ? " " : "");
			printf(")'");
		}
		printf(" \\\n\t\t\t'*:file:_files' ;;\n");
	}
	printf("\thelp)\n\t\t_describe command cmds ;;\n"
	       "\tcompletion)\n\t\t_values shell bash zsh ;;\n\tesac\n}\n"
	       "_slubtiny \"$@\"\n");
}

int cmd_completion(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "bash")) {
		bash();
		return ST_EXIT_OK;
	}
	if (argc == 2 && !strcmp(argv[1], "zsh")) {
		zsh();
		return ST_EXIT_OK;
	}
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		st_usage(stdout, "completion");
		return ST_EXIT_OK;
	}
	p_err("expected 'bash' or 'zsh'; see 'slubtiny completion --help'");
	return ST_EXIT_ERROR;
}
