// SPDX-License-Identifier: GPL-2.0-only
/* slubtiny build's printers: a line per unit, the JSON of the same (build.h). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>

#include "build/build.h"
#include "common/json.h"
#include "st_config.h"

cJSON *st_build_to_json(const struct st_build_result *r)
{
	cJSON *root = cJSON_CreateObject(), *units, *skipped, *o;
	size_t i;

	if (!root)
		return NULL;
	if (!cJSON_AddStringToObject(root, "version", ST_VERSION) ||
	    !cJSON_AddStringToObject(root, "builddir", r->builddir) ||
	    !cJSON_AddStringToObject(root, "datadir", r->datadir) ||
	    !cJSON_AddNumberToObject(root, "jobs_run", r->jobs_run) ||
	    !cJSON_AddNumberToObject(root, "jobs_uptodate", r->jobs_uptodate) ||
	    !cJSON_AddNumberToObject(root, "jobs_failed", r->jobs_failed) ||
	    !(units = cJSON_AddArrayToObject(root, "units")) ||
	    !(skipped = cJSON_AddArrayToObject(root, "skipped")))
		goto fail;
	for (i = 0; i < r->nunits; i++) {
		const struct st_build_unit *u = &r->units[i];

		o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(units, o) ||
		    !cJSON_AddStringToObject(o, "variant", u->variant) ||
		    !cJSON_AddStringToObject(o, "arch", u->arch) ||
		    !cJSON_AddBoolToObject(o, "ok", u->ok) ||
		    !cJSON_AddBoolToObject(o, "rebuilt", u->rebuilt) ||
		    !cJSON_AddStringToObject(o, "config", u->config) ||
		    !(u->ok ? cJSON_AddStringToObject(o, "object", u->object)
			    : cJSON_AddStringToObject(o, "error", u->error)))
			goto fail;
	}
	for (i = 0; i < r->ntcs; i++) {
		const struct st_toolchain *t = &r->tcs[i];

		if (t->found)
			continue;
		o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(skipped, o) ||
		    !cJSON_AddStringToObject(o, "arch", t->arch) ||
		    !cJSON_AddStringToObject(o, "reason", t->reason ? t->reason : "") ||
		    !cJSON_AddStringToObject(o, "package", t->pkg))
			goto fail;
	}
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

static int print_text(FILE *f, const struct st_build_result *r)
{
	size_t i;

	for (i = 0; i < r->nunits; i++) {
		const struct st_build_unit *u = &r->units[i];

		if (u->ok)
			fprintf(f, "%-10s %-12s %s%s\n", u->arch, u->variant, u->object,
			       u->rebuilt ? "" : " (up to date)");
	}
	for (i = 0; i < r->ntcs; i++)
		if (!r->tcs[i].found)
			fprintf(f, "%-10s skipped: %s\n", r->tcs[i].arch, r->tcs[i].reason);
	/* jobs_run counts successes only: a failed build must not read "0 jobs run" alone. */
	fprintf(f, "%u jobs run, ", r->jobs_run);
	if (r->jobs_failed)
		fprintf(f, "%u failed or not started, ", r->jobs_failed);
	fprintf(f, "%u up to date, in %s\n", r->jobs_uptodate, r->builddir);
	return ferror(f) ? -EIO : 0;
}

int st_build_render(FILE *f, const struct st_build_result *r, const struct st_render_opts *o)
{
	switch (o->format) {
	case ST_FORMAT_TEXT:
		return print_text(f, r);
	case ST_FORMAT_JSON:
		return st_json_print(f, st_build_to_json(r), o->pretty);
	default:
		return -ENOTSUP;
	}
}
