// SPDX-License-Identifier: GPL-2.0
/* Fixture: no seq output at all; the prefilter must skip it. */
int nocall(int x)
{
	return x + 1;
}
