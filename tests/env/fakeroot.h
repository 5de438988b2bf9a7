/* Throw-away directory trees that stand in for /sys and /proc in environment tests. */
#ifndef RIGOR_ENV_FAKEROOT_H
#define RIGOR_ENV_FAKEROOT_H

/* Creates an empty directory under /tmp and returns its path (malloc'd). */
char *fake_root_new(void);
/* Writes `content` to root/path, creating parent directories. Returns 0 or -1. */
int fake_write(const char *root, const char *path, const char *content);
/* Removes the tree and frees the path. */
void fake_root_free(char *root);

#endif
