// SPDX-License-Identifier: GPL-2.0-only
/*
 * footprint boot's printers: a text table and an SVG bar chart of what
 * the booted kernels said (the JSON is made in results.c, where the cache
 * files are written from the same tree).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/fs.h"
#include "common/json.h"
#include "common/str.h"
#include "boot/boot.h"

#define TOP_CACHES 5

static bool same_cc(const struct st_boot_item *a, const struct st_boot_item *b)
{
	return a->cc && b->cc && !strcmp(a->cc, b->cc) && a->cc_wrapper && b->cc_wrapper &&
	       !strcmp(a->cc_wrapper, b->cc_wrapper);
}

/*
 * One line when a compiler wrapper built the images, naming the variants
 * only when not every one was (others were cached from a plain build).
 */
static void render_wrapper(const struct st_boot_result *r, FILE *f)
{
	const struct st_boot_item *w = NULL, *it;
	size_t i, n = 0, nbuilt = 0;
	bool first = true;

	for (i = 0; i < r->nitems; i++) {
		it = &r->items[i];
		if (it->error || it->mem_mb != r->mem_mb)
			continue;
		nbuilt++;
		if (it->cc_wrapper && it->cc && (!w || same_cc(it, w))) {
			w = w ? w : it;
			n++;
		}
	}
	if (!w)
		return;
	fprintf(f, "built through %s (CC=%s)", w->cc_wrapper, w->cc);
	for (i = 0; n < nbuilt && i < r->nitems; i++) {
		it = &r->items[i];
		if (!it->error && it->mem_mb == r->mem_mb && same_cc(it, w)) {
			fprintf(f, "%s %s", first ? ":" : ",", it->variant);
			first = false;
		}
	}
	fputc('\n', f);
}

static void render_text(const struct st_boot_result *r, FILE *f)
{
	const struct st_boot_item *it;
	size_t i, k;
	bool plain = !strcmp(r->profile, "minimal");

	fprintf(f, "%s %s%s%s booted, -m %u -smp %u%s%s%s: what the kernel reports (kB)\n",
		r->tree, r->defconfig, plain ? "" : " + ", plain ? "" : r->profile, r->mem_mb,
		r->cpus, *r->cmdline ? ", \"" : "", r->cmdline, *r->cmdline ? "\"" : "");
	if (r->nommu)
		fprintf(f, "no MMU: M-mode, FLAT init\n");
	render_wrapper(r, f);
	if (r->nmems > 1)
		fprintf(f, "%-5s ", "-m MB");
	fprintf(f, "%-10s %-7s %8s %13s %11s %8s %8s %7s %s\n", "variant", "arch", "Slab",
		"SReclaimable", "SUnreclaim", "MemFree", "MemTotal", "boot s", "");
	for (i = 0; i < r->nitems; i++) {
		it = &r->items[i];
		if (r->nmems > 1)
			fprintf(f, "%5u ", it->mem_mb);
		if (it->error) {
			fprintf(f, "%-10s %-7s %8s\n", it->variant, it->arch, "failed");
			continue;
		}
		if (it->stopped) {
			fprintf(f, "%-10s %-7s %s: %s\n", it->variant, it->arch,
				it->out_of_memory ? "out of memory" : "did not boot", it->stopped);
			continue;
		}
		fprintf(f, "%-10s %-7s %8.0f %13.0f %11.0f %8.0f %8.0f %7.2f %s%s%s\n", it->variant,
			it->arch, it->fig.slab_kb, it->fig.sreclaimable_kb, it->fig.sunreclaim_kb,
			it->fig.memfree_kb, it->fig.memtotal_kb, it->boot_s, it->accel,
			it->kvm_failed ? " (kvm started nothing)" : "",
			it->fig.idle ? "" : ", not idle");
	}
	if (r->nmems > 1) {
		fprintf(f, "\nsmallest -m booted:");
		for (i = 0; i < r->nitems; i += r->nmems) {
			unsigned int mb = st_boot_smallest(r, r->items[i].variant);

			if (mb)
				fprintf(f, " %s %u MB%s", r->items[i].variant, mb,
					i + r->nmems < r->nitems ? "," : "");
			else
				fprintf(f, " %s none%s", r->items[i].variant,
					i + r->nmems < r->nitems ? "," : "");
		}
		fputc('\n', f);
	}
	if (r->nratios)
		fprintf(f, "\nratios of Slab: (trace replay, boot trace, peak pages):\n");
	for (i = 0; i < r->nratios; i++) {
		fprintf(f, "  %s/%s = %.3f", r->ratios[i].num, r->ratios[i].den,
			r->ratios[i].kernel);
		if (r->ratios[i].replay)
			fprintf(f, "  (replay %.3f)", r->ratios[i].replay);
		fputc('\n', f);
	}
	for (i = 0; i < r->nitems; i++) {
		it = &r->items[i];
		if (it->error || it->stopped || it->mem_mb != r->mem_mb)
			continue;
		fprintf(f, "\n%s: ", it->variant);
		if (!it->fig.has_slabinfo) {
			fprintf(f, "no /proc/slabinfo in this kernel\n");
			continue;
		}
		fprintf(f, "biggest caches (kB, slabs x pages):\n");
		for (k = 0; k < it->fig.ncaches && k < TOP_CACHES; k++)
			fprintf(f, "  %-24s %6.0f  %4.0f x %.0f\n", it->fig.caches[k].name,
				it->fig.caches[k].kb, it->fig.caches[k].slabs,
				it->fig.caches[k].pagesperslab);
	}
}

#define W 640
#define LEFT 110
#define BAR_H 28
#define GAP 14
#define TOP 50
#define PLOT_W 440

/* The chart shows the booted figures at the first -m only. */
static bool charted(const struct st_boot_result *r, const struct st_boot_item *it)
{
	return !it->error && !it->stopped && it->mem_mb == r->mem_mb;
}

static int render_svg(const struct st_boot_result *r, FILE *f)
{
	double max = 1;
	size_t i, n = 0;
	int h;

	for (i = 0; i < r->nitems; i++) {
		if (!charted(r, &r->items[i]))
			continue;
		n++;
		if (r->items[i].fig.slab_kb > max)
			max = r->items[i].fig.slab_kb;
	}
	h = TOP + (int)n * (BAR_H + GAP) + 40;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n", W, h);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, h);
	fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">Slab: of the booted kernel (kB): ");
	st_xml_escape(f, r->tree);
	fputc(' ', f);
	st_xml_escape(f, r->defconfig);
	fprintf(f, ", %u MB, %u CPU</text>\n", r->mem_mb, r->cpus);
	fprintf(f, "<text x=\"10\" y=\"38\" fill=\"#555\">dark: SUnreclaim, light: "
		"SReclaimable</text>\n");
	for (i = 0, n = 0; i < r->nitems; i++) {
		const struct st_boot_item *it = &r->items[i];
		double wu, wr;
		int y;

		if (!charted(r, it))
			continue;
		y = TOP + (int)n++ * (BAR_H + GAP);
		wu = PLOT_W * it->fig.sunreclaim_kb / max;
		wr = PLOT_W * it->fig.sreclaimable_kb / max;
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 8, y + BAR_H / 2 + 4);
		st_xml_escape(f, it->variant);
		fprintf(f, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
			"fill=\"#3a6ea5\"><title>SUnreclaim %.0f kB</title></rect>\n", LEFT, y, wu,
			BAR_H, it->fig.sunreclaim_kb);
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
			"fill=\"#9cc3e6\"><title>SReclaimable %.0f kB</title></rect>\n", LEFT + wu, y,
			wr, BAR_H, it->fig.sreclaimable_kb);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">%.0f kB</text>\n", LEFT + wu + wr + 6,
			y + BAR_H / 2 + 4, it->fig.slab_kb);
	}
	fprintf(f, "</svg>\n");
	return ferror(f) ? -EIO : 0;
}

int st_boot_render(FILE *f, const struct st_boot_result *r, const struct st_render_opts *o)
{
	switch (o->format) {
	case ST_FORMAT_TEXT:
		render_text(r, f);
		return st_stream_status(f);
	case ST_FORMAT_JSON:
		return st_json_print(f, st_boot_to_json(r), o->pretty);
	case ST_FORMAT_SVG:
		return render_svg(r, f);
	default:
		return -ENOTSUP;
	}
}
