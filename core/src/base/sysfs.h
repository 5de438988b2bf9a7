/* One-line files under /sys and /proc. */
#ifndef RIGOR_SYSFS_H
#define RIGOR_SYSFS_H

#include <stddef.h>

/* Reads the first line of root + path (without its newline) into buf. `root` prefixes the
 * path so tests can point at a fake tree; "" or NULL is the running system. Returns 0,
 * RIGOR_ENOENT or RIGOR_EIO. */
int rigor_sysfs_read_line(const char *root, const char *path, char *buf, size_t cap);

#endif
