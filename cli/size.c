// SPDX-License-Identifier: GPL-2.0-only
#include "cli.h"

int cmd_size(int argc, char **argv)
{
	if (st_wants_help(argc, argv, "size"))
		return ST_EXIT_OK;
	p_err("size: not implemented yet");
	return ST_EXIT_ERROR;
}
