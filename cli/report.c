// SPDX-License-Identifier: GPL-2.0-only
#include "cli.h"

int cmd_report(int argc, char **argv)
{
	if (st_wants_help(argc, argv, "report"))
		return ST_EXIT_OK;
	p_err("report: not implemented yet");
	return ST_EXIT_ERROR;
}
