// SPDX-License-Identifier: GPL-2.0-only
#include "cli.h"

int cmd_footprint(int argc, char **argv)
{
	if (st_wants_help(argc, argv, "footprint"))
		return ST_EXIT_OK;
	p_err("footprint: not implemented yet");
	return ST_EXIT_ERROR;
}
