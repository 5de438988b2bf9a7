/* Shared by the cluster tests: the Slurm cluster tests/cluster/slurm_cluster.sh started as a
 * ctest fixture, a scratch folder, rigor run there, and its results file read back. */
#ifndef RIGOR_TEST_SLURM_SUPPORT_H
#define RIGOR_TEST_SLURM_SUPPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Points SLURM_CONF at the fixture's cluster and returns true; where the cluster is missing
 * (Slurm not installed), prints why and returns false: the test then skips. */
bool sl_cluster(void);
/* The folder that the cluster's node n3 sees as a tmpfs of its own (its steps cannot read
 * what the others write there), or NULL where the fixture could not make one. A static buffer. */
const char *sl_private_dir(void);
/* The test's scratch folder, made empty, and the working folder of sl_rigor. */
const char *sl_scratch(const char *test);
void sl_write(const char *name, const char *text);
/* NAME in the scratch folder (a static buffer, overwritten by the next call). */
const char *sl_path(const char *name);
char *sl_read(const char *name); /* "" when missing; the caller frees */

typedef struct sl_result {
  int rc;
  char *out, *err;
} sl_result_t;
/* Runs `rigor ARGS` (shell text) in the scratch folder; stdout and stderr apart. */
sl_result_t sl_rigor(const char *fmt, ...);
void sl_result_free(sl_result_t *r);
/* Runs shell text in the scratch folder; its exit status. */
int sl_sh(const char *fmt, ...);

/* Waits for shell text to succeed, polling every 0.1 s for up to `seconds`; on a timeout prints
 * what Slurm shows (queue, nodes, the controller's last lines) and what rigor said (err.txt)
 * and fails the test. */
void sl_wait(double seconds, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The records of a results file of the scratch folder, of one type ("run", "sample"...). */
json_t *sl_records(const char *name, const char *type);

#define SL_HAS(text, needle)                                                                       \
  do {                                                                                             \
    if (!strstr((text), (needle))) fail_msg("expected '%s' in:\n%s", (needle), (text));            \
  } while (0)

#define SL_REQUIRE_CLUSTER()                                                                       \
  do {                                                                                             \
    if (!sl_cluster()) skip();                                                                     \
  } while (0)

#endif
