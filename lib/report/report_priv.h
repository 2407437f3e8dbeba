/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_REPORT_PRIV_H
#define ST_REPORT_PRIV_H

#include <stdio.h>

struct st_report;

/* html.c: the HTML printer of st_report_render(). */
int st_report_print_html(FILE *f, const struct st_report *r);

#endif
