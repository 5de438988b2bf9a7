/* device_addrs.toml: named buffers as TOML tables with addr = "0x..." and size_bytes = N. A strict
 * reader for exactly that subset; errors read "file:line: message". */
#ifndef PTO_VF_ADDRS_H
#define PTO_VF_ADDRS_H

#include <stddef.h>
#include <stdint.h>

typedef struct vf_buffer {
  char name[64];
  uint64_t base;
  uint64_t size;
} vf_buffer_t;

typedef struct vf_addrs {
  vf_buffer_t *buffers; /* in file order */
  size_t n;
} vf_addrs_t;

/* Returns 0, -EINVAL (syntax; message in err) or -ENOMEM. */
int vf_addrs_parse(const char *text, size_t len, const char *file, vf_addrs_t *out, char *err,
                   size_t errlen);
/* Reads and parses a file; -ENOENT when it cannot be read. */
int vf_addrs_load(const char *path, vf_addrs_t *out, char *err, size_t errlen);
void vf_addrs_free(vf_addrs_t *a);
/* The first buffer with base <= addr < base + size, or NULL. */
const char *vf_addrs_lookup(const vf_addrs_t *a, uint64_t addr);

#endif
