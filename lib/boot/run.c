// SPDX-License-Identifier: GPL-2.0-only
/*
 * footprint boot: each variant's kernel image built by lib/kernel with
 * what a boot needs added to its configuration, then booted in QEMU with a
 * one-program initramfs: validate -> plan the kernel build -> prepare the
 * init -> build -> boot each image (see boot.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/array.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/spawn.h"
#include "common/str.h"
#include "kernel/kernel.h"
#include "linux/arch.h"
#include "boot_priv.h"

/*
 * The user's part of the kernel command line: what fits in the generic
 * COMMAND_LINE_SIZE (512) beside "console=... panic=-1".
 */
#define CMDLINE_MAX 448

void st_boot_result_free(struct st_boot_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nitems; i++) {
		struct st_boot_item *it = &r->items[i];

		free(it->arch);
		free(it->variant);
		free(it->name);
		free(it->image);
		free(it->dir);
		free(it->resolved);
		free(it->cc);
		free(it->cc_wrapper);
		free(it->error);
		free(it->stopped);
		st_boot_figures_free(&it->fig);
	}
	free(r->items);
	free(r->tree);
	free(r->defconfig);
	free(r->cmdline);
	free(r);
}

static int rm_tree(const char *dir)
{
	char path[PATH_MAX];

	st_pathf(path, "%s/init", dir);
	unlink(path);
	st_pathf(path, "%s/initramfs.cpio", dir);
	unlink(path);
	return rmdir(dir);
}


/* What a run works from, made once before anything is built. */
struct plan {
	const struct boot_arch *a;
	const struct boot_profile *prof;
	struct st_kernel_opts ko;	/* the user's, plus what a boot adds */
	const char *extra[24], *frags[ST_BOOT_MAX_FRAGMENTS + 1], *cross[2];
	struct st_kernel_tc tc;		/* the arch's compiler (st_kernel_toolchain()) */
	char builddir[PATH_MAX], frag[PATH_MAX];
	char tmp[PATH_MAX], initrd[PATH_MAX];
	unsigned int timeout;
	bool kvm, nommu;
};

/* The kernel command line's user part: printable, and room for slubtiny's own. */
static int check_cmdline(const char *cmdline, struct st_error *e)
{
	const char *c;

	for (c = cmdline; *c; c++)
		if ((unsigned char)*c < ' ' || *c == 0x7f)
			return st_err(e, EINVAL, NULL, "the kernel command line has a control "
				      "character at byte %zu", (size_t)(c - cmdline) + 1);
	if (c - cmdline > CMDLINE_MAX)
		return st_err(e, EINVAL, NULL, "the kernel command line is longer than %d bytes",
			      CMDLINE_MAX);
	return 0;
}

/* The options a boot cannot take, found before anything is built. */
static int validate(const struct st_boot_opts *o, struct plan *p, struct st_error *e)
{
	const char *arch = o->k.narches ? o->k.arches[0] : "x86_64";

	if (o->k.narches > 1)
		return st_err(e, EINVAL, NULL, "a boot takes one arch at a time");
	p->a = st_boot_find_arch(arch);
	if (!p->a)
		return st_err(e, ENOTSUP, NULL, "no QEMU machine for ARCH=%s "
			      "(boots x86_64, arm, riscv)", arch);
	p->prof = st_boot_find_profile(o->profile);
	if (!p->prof)
		return st_err(e, EINVAL, NULL, "unknown boot configuration '%s' "
			      "(minimal, kvm-guest)", o->profile);
	if (o->accel && strcmp(o->accel, "kvm") && strcmp(o->accel, "tcg"))
		return st_err(e, EINVAL, NULL, "unknown accelerator '%s' (kvm, tcg)", o->accel);
	p->kvm = o->accel ? !strcmp(o->accel, "kvm") : st_boot_kvm_usable();
	if (!st_arch_same(p->a->arch, st_arch_host_machine())) {
		/* TCG only: QEMU emulates another arch */
		if (o->accel && !strcmp(o->accel, "kvm"))
			return st_err(e, EINVAL, NULL, "no KVM for ARCH=%s on this machine; "
				      "boot it with TCG", arch);
		p->kvm = false;
	}
	p->nommu = st_boot_nommu(o, p->a->arch);
	if (p->nommu && !p->a->nommu_config)
		return st_err(e, ENOTSUP, NULL, "no QEMU machine for ARCH=%s "
			      "without an MMU (riscv has one)", arch);
	if (p->prof->fragment && o->k.nfragments > ST_BOOT_MAX_FRAGMENTS - 1)
		return st_err(e, E2BIG, NULL, "more than %d config fragments besides the "
			      "boot configuration's", ST_BOOT_MAX_FRAGMENTS - 1);
	if (o->cmdline)
		return check_cmdline(o->cmdline, e);
	return 0;
}

/*
 * The kernel build a boot asks lib/kernel for: the arch's image, the
 * boot's lines and the profile's fragment on top of the user's
 * configuration, the compiler lib/kernel's finder picks when none is named.
 */
static int plan_kernel(const struct st_boot_opts *o, struct plan *p, struct st_error *e)
{
	struct st_kernel_opts *ko = &p->ko;
	size_t i;
	int ret;

	*ko = o->k;
	ko->arches = &p->a->arch;
	ko->narches = 1;
	ko->image_target = p->a->target;
	ko->image_file = p->a->file;
	st_boot_arch_config(p->a, p->nommu, o->k.srctree, p->extra, ARRAY_SIZE(p->extra));
	ko->extra = p->extra;
	ko->flavour = p->prof->flavour;
	if (p->prof->fragment) {
		if (st_pathf(p->frag, "%s/%s", o->k.srctree, p->prof->fragment))
			return st_err(e, ENAMETOOLONG, o->k.srctree, "path too long");
		if (access(p->frag, R_OK))
			return st_err(e, errno, p->frag, "boot configuration %s: this tree has no "
				      "%s: %s", p->prof->name, p->prof->fragment, strerror(errno));
		p->frags[0] = p->frag;
		for (i = 0; i < o->k.nfragments; i++)
			p->frags[i + 1] = o->k.fragments[i];
		ko->fragments = p->frags;
		ko->nfragments = o->k.nfragments + 1;
	}
	/*
	 * The compiler `kernel` would pick (the init is built with it too),
	 * said here once: lib/kernel then sees it as given.
	 */
	ret = st_kernel_toolchain(&o->k, p->a->arch, &p->tc, e);
	if (ret)
		return ret;
	if (o->k.toolchain)
		o->k.toolchain(o->k.progress_ctx, p->a->arch, &p->tc);
	ko->toolchain = NULL;
	ko->ncross = 0;
	if (p->tc.cross) {
		p->cross[0] = p->tc.cross;
		p->cross[1] = NULL;
		ko->cross = p->cross;
		ko->ncross = 1;
	}
	ko->vmlinux = false;
	ko->shard_n = 0;
	if (ko->builddir)
		st_pathf(p->builddir, "%s", ko->builddir);
	else if ((ret = st_kernel_default_dir(p->builddir, sizeof(p->builddir))))
		return st_kernel_default_dir_err(p->builddir, ret, e);
	ko->builddir = p->builddir;
	return 0;
}

/* QEMU is there: a missing one is found in a second, not after the builds. */
static int find_qemu(const struct boot_arch *a, struct st_error *e)
{
	char *argv[] = { (char *)a->qemu, "--version", NULL }, *ver = NULL;
	int ret;

	if (access("/dev/null", R_OK))
		return st_err(e, errno, "/dev/null", "%s", strerror(errno));
	/* its output collected: stdout is the report's */
	ret = st_run(argv, NULL, NULL, &ver, NULL, ST_SPAWN_QUIET);
	free(ver);
	if (ret)
		return st_err(e, ENOENT, NULL, "%s not found (Debian package %s)", a->qemu,
			      a->package);
	return 0;
}

/* The init and its initramfs in a new temporary directory (rm_tree() it). */
static int prepare(const struct st_boot_opts *o, struct plan *p, struct st_error *e)
{
	char *init = NULL;
	size_t init_len = 0;
	int ret;

	ret = mkdir(p->builddir, 0777);
	if (ret && errno != EEXIST && errno != ENOENT)
		return st_err(e, errno, p->builddir, "cannot create: %s", strerror(errno));
	st_pathf(p->tmp, "%s/tmp-boot-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(p->tmp))
		return st_err(e, errno, p->tmp, "cannot create: %s", strerror(errno));
	st_pathf(p->initrd, "%s/initramfs.cpio", p->tmp);
	ret = st_boot_compile_init(o, st_kernel_cross(&p->ko, p->a->arch), p->tmp, p->nommu,
				   &init, &init_len, e);
	if (!ret)
		ret = st_boot_make_initramfs(init, init_len, o->busybox, p->initrd, e);
	free(init);
	if (ret)
		rm_tree(p->tmp);
	return ret;
}

static struct st_boot_result *new_result(const struct st_boot_opts *o, const struct plan *p,
					 const struct st_kernel_result *k)
{
	struct st_boot_result *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->tree = strdup(k->tree);
	r->defconfig = strdup(o->k.defconfig ? o->k.defconfig : "defconfig");
	r->cmdline = strdup(o->cmdline ? o->cmdline : "");
	r->profile = p->prof->name;
	r->mem_mb = o->nmems ? o->mems[0] : o->mem_mb ? o->mem_mb : 32;
	r->nommu = p->nommu;
	r->cpus = o->cpus ? o->cpus : 1;
	r->nmems = o->nmems ? o->nmems : 1;
	r->items = calloc(k->nitems * r->nmems + 1, sizeof(*r->items));
	if (!r->tree || !r->defconfig || !r->cmdline || !r->items) {
		st_boot_result_free(r);
		return NULL;
	}
	return r;
}

/* Boot item @it from kernel item @ki, at its -m size; -ENOMEM. */
static int new_item(struct st_boot_item *it, const struct st_kernel_item *ki,
		    const struct st_boot_result *r, unsigned int mem_mb)
{
	it->mem_mb = mem_mb;
	it->arch = strdup(ki->arch);
	it->variant = strdup(ki->variant);
	it->name = r->nmems > 1 ? st_asprintf("%s, %u MB", ki->name, it->mem_mb) :
				  strdup(ki->name);
	it->dir = strdup(ki->dir);
	it->build_cached = ki->cached;
	it->resolved = ki->resolved ? strdup(ki->resolved) : NULL;
	it->cc = ki->cc ? strdup(ki->cc) : NULL;
	it->cc_wrapper = ki->cc_wrapper ? strdup(ki->cc_wrapper) : NULL;
	if (!it->arch || !it->variant || !it->name || !it->dir ||
	    (ki->resolved && !it->resolved) || (ki->cc && !it->cc) ||
	    (ki->cc_wrapper && !it->cc_wrapper))
		return -ENOMEM;
	if (ki->error) {
		it->error = strdup(ki->error);
		return it->error ? 0 : -ENOMEM;
	}
	it->image = strdup(ki->object);
	return it->image ? 0 : -ENOMEM;
}

/*
 * Boot one item (with KVM, and with TCG for the rest of the run when KVM
 * starts nothing) and keep its figures; @prog's step says how it went.
 * -ENOMEM only: a boot that fails is the item's error.
 */
static int boot_item(const struct st_boot_opts *o, struct plan *p, struct st_boot_result *r,
		     struct st_boot_item *it, struct st_kernel_progress *prog)
{
	int ret;

	ret = st_boot_one(p->a, it, p->initrd, r, p->timeout, p->kvm,
			  o->accel ? 0 : KVM_BANNER_S);
	if (ret == -ETIME) {
		p->kvm = false;
		it->kvm_failed = true;
		ret = st_boot_one(p->a, it, p->initrd, r, p->timeout, false, 0);
	}
	if (ret == -ENOMEM && !it->error)
		return -ENOMEM;
	if (ret) {
		r->nfailed++;
		prog->step = "boot failed";
	} else if (it->stopped) {
		/* a result, not a failure; no figures to keep as the latest */
		prog->step = it->out_of_memory ? "out of memory" : "did not boot";
	} else {
		prog->step = "booted";
		ret = st_boot_save_result(r, it, p->builddir);
		if (ret) {
			it->error = st_asprintf("%s: cannot keep the result under %s: %s",
						it->name, it->dir, strerror(-ret));
			r->nfailed++;
		}
	}
	return 0;
}

/* Each built image in each -m size, in order; -ENOMEM. */
static int boot_all(const struct st_boot_opts *o, struct plan *p, struct st_boot_result *r,
		    const struct st_kernel_result *k)
{
	size_t i, total = k->nitems * r->nmems;

	for (i = 0; i < total; i++) {
		const struct st_kernel_item *ki = &k->items[i / r->nmems];
		struct st_boot_item *it = &r->items[r->nitems++];
		struct st_kernel_progress prog = { .item = ki->name, .index = i + 1,
						   .total = total };
		double t0 = st_boot_now();

		if (new_item(it, ki, r, o->nmems ? o->mems[i % r->nmems] : r->mem_mb))
			return -ENOMEM;
		if (ki->error) {
			r->nfailed++;
			continue;
		}
		prog.step = "boot";
		if (o->k.progress)
			o->k.progress(o->k.progress_ctx, &prog);
		if (boot_item(o, p, r, it, &prog))
			return -ENOMEM;
		prog.elapsed = st_boot_now() - t0;
		if (o->k.progress)
			o->k.progress(o->k.progress_ctx, &prog);
	}
	return 0;
}

int st_boot_run(const struct st_boot_opts *o, struct st_boot_result **out, struct st_error *e)
{
	struct st_kernel_result *k = NULL;
	struct st_boot_result *r = NULL;
	struct plan p = { .timeout = o->timeout_s ? o->timeout_s : 300 };
	int ret;

	*out = NULL;
	ret = validate(o, &p, e);
	if (!ret)
		ret = plan_kernel(o, &p, e);
	if (!ret)
		ret = find_qemu(p.a, e);
	if (!ret)
		ret = prepare(o, &p, e);
	if (ret) {
		st_kernel_tc_release(&p.tc);
		return ret;
	}
	ret = st_kernel_run(&p.ko, &k, e);
	if (ret)
		goto out;
	r = new_result(o, &p, k);
	if (!r || boot_all(o, &p, r, k)) {
		st_boot_result_free(r);
		ret = st_err(e, ENOMEM, NULL, "out of memory");
		goto out;
	}
	*out = r;
out:
	st_kernel_result_free(k);
	st_kernel_tc_release(&p.tc);
	rm_tree(p.tmp);
	return ret;
}

unsigned int st_boot_smallest(const struct st_boot_result *r, const char *variant)
{
	unsigned int best = 0;
	size_t i;

	for (i = 0; i < r->nitems; i++) {
		const struct st_boot_item *it = &r->items[i];

		if (it->error || it->stopped || strcmp(it->variant, variant))
			continue;
		if (!best || it->mem_mb < best)
			best = it->mem_mb;
	}
	return best;
}

void st_boot_ratios(struct st_boot_result *r, const char *const *variants,
		    const unsigned long *peak, size_t n)
{
	static const char *const pairs[][2] = {
		{ "slub_tiny", "slub" }, { "slob", "slub_tiny" }, { "slob", "slub" },
	};
	const struct st_boot_item *a, *b;
	size_t i, k;

	r->nratios = 0;
	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		struct st_boot_ratio *q = &r->ratios[r->nratios];
		unsigned long pa = 0, pb = 0;

		a = b = NULL;
		for (k = 0; k < r->nitems; k++) {
			if (r->items[k].error || r->items[k].stopped || r->items[k].mem_mb != r->mem_mb)
				continue;
			if (!strcmp(r->items[k].variant, pairs[i][0]))
				a = &r->items[k];
			if (!strcmp(r->items[k].variant, pairs[i][1]))
				b = &r->items[k];
		}
		if (!a || !b || !b->fig.slab_kb)
			continue;
		for (k = 0; k < n; k++) {
			if (!strcmp(variants[k], pairs[i][0]))
				pa = peak[k];
			if (!strcmp(variants[k], pairs[i][1]))
				pb = peak[k];
		}
		q->num = pairs[i][0];
		q->den = pairs[i][1];
		q->kernel = a->fig.slab_kb / b->fig.slab_kb;
		q->replay = pa && pb ? (double)pa / pb : 0;
		r->nratios++;
	}
}
