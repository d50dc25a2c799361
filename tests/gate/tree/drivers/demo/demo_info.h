/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DEMO_INFO_H
#define DEMO_INFO_H

#include <linux/seq_file.h>

/* The demo's own print macro: every info line goes through it. */
#define DEMO_INFO(m, fmt, ...) seq_printf(m, "demo: " fmt, ##__VA_ARGS__)

#endif
