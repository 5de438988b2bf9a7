/* `executor:`, the file's word on where its experiments run: `executor: {slurm: {nodes,
 * partition, time, account}}` carries the settings of `rigor run --slurm` in a shared config.
 * It says where, not what: it stays out of every experiment's canonical form and hash, so a
 * campaign resumed elsewhere is the same experiment. */
#include <stdio.h>

#include "language_internal.h"

static const char *const executor_keys[] = {"slurm", NULL};
static const char *const slurm_keys[] = {"nodes", "partition", "time", "account", NULL};

static int slurm(rigor__cfg_t *c, const rigor__node_t *n, json_t *out) {
  if (rigor__expect(c, n, RIGOR__MAP, "executor.slurm") ||
      rigor__check_keys(c, n, slurm_keys, "executor.slurm"))
    return RIGOR_ECONFIG;
  const rigor__node_t *v;
  if ((v = rigor__get(n, "nodes"))) {
    uint64_t nodes;
    if (rigor__get_uint(c, v, "executor.slurm.nodes", 1, 100000, &nodes)) return RIGOR_ECONFIG;
    json_object_set_new(out, "nodes", json_integer((json_int_t)nodes));
  }
  const char *text;
  if ((v = rigor__get(n, "partition"))) {
    if (rigor__get_string(c, v, "executor.slurm.partition", &text)) return RIGOR_ECONFIG;
    json_object_set_new(out, "partition", json_string(text));
  }
  if ((v = rigor__get(n, "account"))) {
    if (rigor__get_string(c, v, "executor.slurm.account", &text)) return RIGOR_ECONFIG;
    json_object_set_new(out, "account", json_string(text));
  }
  if ((v = rigor__get(n, "time"))) {
    double seconds;
    if (rigor__get_duration(c, v, "executor.slurm.time", &seconds)) return RIGOR_ECONFIG;
    if (seconds < 60)
      return rigor__fail(c, v, "executor.slurm.time is at least 1m (Slurm counts minutes)");
    json_object_set_new(out, "time_s", json_real(seconds));
  }
  return 0;
}

int rigor__executor(rigor__cfg_t *c, const rigor__node_t *n, json_t **out) {
  *out = NULL;
  if (!n || rigor__is_null(n)) return 0;
  if (rigor__expect(c, n, RIGOR__MAP, "executor") ||
      rigor__check_keys(c, n, executor_keys, "executor"))
    return RIGOR_ECONFIG;
  json_t *settings = json_object();
  const rigor__node_t *s = rigor__get(n, "slurm");
  if (s && slurm(c, s, settings)) {
    json_decref(settings);
    return RIGOR_ECONFIG;
  }
  *out = json_pack("{s:o}", "slurm", settings);
  return 0;
}
