// SPDX-License-Identifier: GPL-2.0-only
#include "cli.h"

int cmd_migrate(int argc, char **argv)
{
	if (st_wants_help(argc, argv, "migrate"))
		return ST_EXIT_OK;
	p_err("migrate: not implemented yet");
	return ST_EXIT_ERROR;
}
