#include "capabilities.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Each capability, its words, and the hooks that must all be present for it. */
typedef struct cap_rule {
  uint32_t bit;
  const char *flag;
  const char *words;
  const char *hooks[2];
} cap_rule_t;

static const cap_rule_t rules[] = {
    {RIGOR_CAP_ASYNC, "RIGOR_CAP_ASYNC", "asynchronous", {"complete"}},
    {RIGOR_CAP_VALIDATES, "RIGOR_CAP_VALIDATES", "validates", {"validate"}},
    {RIGOR_CAP_DEVICE_MARKS, "RIGOR_CAP_DEVICE_MARKS", "device marks", {"mark", "mark_read"}},
    {RIGOR_CAP_READS_METRICS, "RIGOR_CAP_READS_METRICS", "reads metrics", {"metrics_read"}},
    {RIGOR_CAP_IDENTITY, "RIGOR_CAP_IDENTITY", "identity", {"identity"}},
    {RIGOR_CAP_TELEMETRY, "RIGOR_CAP_TELEMETRY", "telemetry", {"telemetry"}},
    {RIGOR_CAP_WARMUP_SIZES, "RIGOR_CAP_WARMUP_SIZES", "warmup sizes", {"warm_points"}},
    {RIGOR_CAP_CHECKS_PARAMS, "RIGOR_CAP_CHECKS_PARAMS", "checks params", {"check_params"}},
    {RIGOR_CAP_LISTS_COMMANDS, "RIGOR_CAP_LISTS_COMMANDS", "lists commands", {"commands"}},
    {RIGOR_CAP_DECLARES_METRICS,
     "RIGOR_CAP_DECLARES_METRICS",
     "declares metrics",
     {"declare_metrics"}},
    {RIGOR_CAP_FOOTPRINT, "RIGOR_CAP_FOOTPRINT", "footprint", {"footprint"}},
};
#define N_RULES (sizeof rules / sizeof *rules)

static bool hook_present(const rigor_plugin_t *d, const char *hook) {
  const struct {
    const char *name;
    bool present;
  } hooks[] = {
      {"complete", d->complete != NULL},
      {"validate", d->validate != NULL},
      {"mark", d->mark != NULL},
      {"mark_read", d->mark_read != NULL},
      {"metrics_read", d->metrics_read != NULL},
      {"identity", d->identity != NULL},
      {"telemetry", d->telemetry != NULL},
      {"warm_points", d->warm_points != NULL},
      {"check_params", d->check_params != NULL},
      {"commands", d->commands != NULL},
      {"declare_metrics", d->declare_metrics != NULL},
      {"footprint", d->footprint != NULL},
  };
  for (size_t i = 0; i < sizeof hooks / sizeof *hooks; i++)
    if (strcmp(hooks[i].name, hook) == 0) return hooks[i].present;
  return false;
}

/* Every hook of the rule present (device marks need both: one alone was never used). */
static bool rule_met(const rigor_plugin_t *d, const cap_rule_t *r) {
  for (size_t h = 0; h < 2 && r->hooks[h]; h++)
    if (!hook_present(d, r->hooks[h])) return false;
  return true;
}

uint32_t rigor_caps_inferred(const rigor_plugin_t *d) {
  uint32_t caps = 0;
  for (size_t i = 0; i < N_RULES; i++)
    if (rule_met(d, &rules[i])) caps |= rules[i].bit;
  return caps;
}

int rigor_caps_settle(rigor_plugin_t *d, const char *file, char *err, size_t errlen) {
  if (d->capabilities == 0) {
    d->capabilities = rigor_caps_inferred(d);
    return 0;
  }
  uint32_t known = RIGOR_CAP_DECLARED;
  for (size_t i = 0; i < N_RULES; i++)
    known |= rules[i].bit;
  if (!(d->capabilities & RIGOR_CAP_DECLARED) || (d->capabilities & ~known)) {
    snprintf(err, errlen,
             "%s: plugin '%s' sets capabilities 0x%x that this rigor does not read (known: 0x%x, "
             "with RIGOR_CAP_DECLARED)",
             file, d->name, d->capabilities, known);
    return RIGOR_EABI;
  }
  for (size_t i = 0; i < N_RULES; i++) {
    const cap_rule_t *r = &rules[i];
    bool declared = (d->capabilities & r->bit) != 0;
    for (size_t h = 0; h < 2 && r->hooks[h]; h++) {
      bool present = hook_present(d, r->hooks[h]);
      if (declared == present) continue;
      if (declared)
        snprintf(err, errlen, "%s: plugin '%s' declares %s but has no %s hook", file, d->name,
                 r->flag, r->hooks[h]);
      else
        snprintf(err, errlen, "%s: plugin '%s' has a %s hook but does not declare %s", file,
                 d->name, r->hooks[h], r->flag);
      return RIGOR_EABI;
    }
  }
  return 0;
}

void rigor_caps_describe(uint32_t caps, char *out, size_t cap) {
  size_t len = 0;
  out[0] = '\0';
  for (size_t i = 0; i < N_RULES; i++)
    if (caps & rules[i].bit) {
      int n = snprintf(out + len, cap - len, "%s%s", len ? ", " : "", rules[i].words);
      if (n < 0 || (size_t)n >= cap - len) return;
      len += (size_t)n;
    }
  if (!len) snprintf(out, cap, "none");
}
