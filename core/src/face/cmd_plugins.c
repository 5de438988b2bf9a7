#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "describe.h"
#include "loader.h"

static void warn_print(void *arg, const char *message) {
  (void)arg;
  fprintf(stderr, "rigor: warning: %s\n", message);
}

static void choices_text(const rigor_param_t *p, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  if (p->type == RIGOR_PARAM_ENUM && p->choices) {
    for (const char *const *c = p->choices; *c && used < cap; c++)
      used += (size_t)snprintf(out + used, cap - used, "%s%s", c == p->choices ? "" : ", ", *c);
    if (p->aliases)
      for (const char *const *a = p->aliases; a[0] && a[1] && used < cap; a += 2)
        used += (size_t)snprintf(out + used, cap - used, "; %s = %s", a[0], a[1]);
  } else if (p->min && p->max) {
    snprintf(out, cap, "%s .. %s", p->min, p->max);
  } else if (p->min) {
    snprintf(out, cap, ">= %s", p->min);
  } else if (p->max) {
    snprintf(out, cap, "<= %s", p->max);
  }
}

static void print_md(const rigor_plugin_t *d) {
  printf("### Parameters\n\n");
  if (d->n_params == 0) {
    printf("None.\n\n");
  } else {
    printf("| name | type | default | range / choices | help |\n|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < d->n_params; i++) {
      const rigor_param_t *p = &d->params[i];
      char range[1024];
      choices_text(p, range, sizeof range);
      printf("| `%s` | %s | %s%s%s | %s | %s |\n", p->name, rigor_param_type_name(p->type),
             p->def ? "`" : "", p->def ? p->def : "", p->def ? "`" : "", range,
             p->help ? p->help : "");
    }
    printf("\n");
  }
  printf("### Metrics\n\n");
  if (d->n_metrics == 0) {
    printf("None.\n");
    return;
  }
  printf("| name | unit | better | help |\n|---|---|---|---|\n");
  for (uint32_t i = 0; i < d->n_metrics; i++) {
    const rigor_metric_t *m = &d->metrics[i];
    printf("| `%s` | %s | %s | %s |\n", m->name, m->unit ? m->unit : "",
           m->better == RIGOR_HIGHER_IS_BETTER ? "higher" : "lower", m->help ? m->help : "");
  }
  if (d->primary_metric)
    printf("\nPrimary figure: `%s` (what report, gate, contrasts, compare and rounds judge).\n",
           d->primary_metric);
}

static void print_text(const rigor_loaded_t *l) {
  const rigor_plugin_t *d = &l->desc;
  printf("%s %s: %s\n  file: %s\n", d->name, d->version ? d->version : "",
         d->summary ? d->summary : "", l->path);
  printf("\nparameters:\n");
  if (d->n_params == 0) printf("  (none)\n");
  for (uint32_t i = 0; i < d->n_params; i++) {
    const rigor_param_t *p = &d->params[i];
    char range[1024];
    choices_text(p, range, sizeof range);
    printf("  %-20s %-7s default %-10s %s%s%s\n", p->name, rigor_param_type_name(p->type),
           p->def ? p->def : "-", range[0] ? "[" : "", range, range[0] ? "]" : "");
    if (p->help) printf("  %-20s %s\n", "", p->help);
  }
  printf("\nmetrics:\n");
  if (d->n_metrics == 0) printf("  (none)\n");
  for (uint32_t i = 0; i < d->n_metrics; i++) {
    const rigor_metric_t *m = &d->metrics[i];
    printf("  %-24s %-10s %s is better%s%s\n", m->name, m->unit ? m->unit : "",
           m->better == RIGOR_HIGHER_IS_BETTER ? "higher" : "lower", m->help ? ": " : "",
           m->help ? m->help : "");
  }
  if (d->primary_metric)
    printf("\nprimary figure: %s (what report, gate, contrasts, compare and rounds judge)\n",
           d->primary_metric);
}

int rigor_cmd_plugins(int argc, char **argv) {
  const char *name = NULL, *format = "text";
  const char *dirs[65] = {0};
  int nd = 0;
  bool names_only = false;
  rigor_plugin_search_t search = {0};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--plugin-path") && i + 1 < argc && nd < 64)
      dirs[nd++] = argv[++i];
    else if (!strcmp(argv[i], "--format") && i + 1 < argc)
      format = argv[++i];
    else if (!strcmp(argv[i], "--names"))
      names_only = true;
    else if (!strcmp(argv[i], "--allow-unsafe-plugin-path"))
      search.allow_unsafe = true;
    else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      printf("usage: rigor plugins [NAME] [--format text|md] [--names] [--plugin-path DIR]...\n");
      return RIGOR_EXIT_OK;
    } else if (argv[i][0] != '-' && !name)
      name = argv[i];
    else {
      fprintf(stderr, "rigor plugins: unexpected argument '%s'\n", argv[i]);
      return RIGOR_EXIT_USAGE;
    }
  }
  if (strcmp(format, "text") && strcmp(format, "md")) {
    fprintf(stderr, "rigor plugins: unknown format '%s' (text or md)\n", format);
    return RIGOR_EXIT_USAGE;
  }
  search.extra_dirs = dirs;
  if (name) {
    rigor_loaded_t *l = NULL;
    char err[2048];
    if (rigor_plugin_load(name, &search, &l, err, sizeof err) < 0) {
      fprintf(stderr, "rigor plugins: %s\n", err);
      return RIGOR_EXIT_USAGE;
    }
    if (!strcmp(format, "md"))
      print_md(&l->desc);
    else
      print_text(l);
    rigor_plugin_unload(l);
    return RIGOR_EXIT_OK;
  }
  rigor_loaded_t **list = NULL;
  size_t n = 0;
  rigor_plugin_list(&search, &list, &n, names_only ? NULL : warn_print, NULL);
  for (size_t i = 0; i < n; i++) {
    const rigor_plugin_t *d = &list[i]->desc;
    if (names_only)
      printf("%s\n", d->name);
    else if (!strcmp(format, "md"))
      printf("| `%s` | %s | %s |\n", d->name, d->version ? d->version : "",
             d->summary ? d->summary : "");
    else
      printf("%-12s %-8s %s\n", d->name, d->version ? d->version : "",
             d->summary ? d->summary : "");
    rigor_plugin_unload(list[i]);
  }
  free(list);
  if (n == 0 && !names_only) fprintf(stderr, "rigor plugins: no plugins found\n");
  return RIGOR_EXIT_OK;
}
