// SPDX-License-Identifier: GPL-2.0-only
#include "cli.h"

int cmd_build(int argc, char **argv)
{
	if (st_wants_help(argc, argv, "build"))
		return ST_EXIT_OK;
	p_err("build: not implemented yet");
	return ST_EXIT_ERROR;
}
