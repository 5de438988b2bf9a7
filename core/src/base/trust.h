/* Whether a file someone else could have replaced may be followed: a plugin rigor loads, a shared
 * config it extends. */
#ifndef RIGOR_TRUST_H
#define RIGOR_TRUST_H

#include <limits.h>

typedef struct rigor_distrust {
  char path[PATH_MAX]; /* the real path at fault: the file or a folder above it */
  const char *why;     /* "is owned by another user", "is world-writable", "is group-writable" */
} rigor_distrust_t;

/* Like OpenSSH's check of authorized_keys: the file, its resolved path and every folder above it
 * must be owned by root or by us, and none may be writable by others (a sticky folder such as
 * /tmp is fine: others cannot replace what we own in it); the file must not be group-writable.
 * Returns 0 when it passes or when the path does not resolve (the open that follows reports
 * that), RIGOR_EINVAL with *out filled in when it fails. */
int rigor_trust_check(const char *path, rigor_distrust_t *out);

#endif
