// SPDX-License-Identifier: GPL-2.0-only
#include "cli.h"

int cmd_check(int argc, char **argv)
{
	if (st_wants_help(argc, argv, "check"))
		return ST_EXIT_OK;
	p_err("check: not implemented yet");
	return ST_EXIT_ERROR;
}
