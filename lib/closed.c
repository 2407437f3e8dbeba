// SPDX-License-Identifier: GPL-2.0-only
/*
 * Linked with the whole of one lib/ module and only the modules it declares
 * (lib/meson.build): if the module calls a function of any other, this
 * program fails to link. It is never run.
 */
int main(void)
{
	return 0;
}
