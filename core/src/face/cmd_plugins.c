#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capabilities.h"
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

static void print_md(FILE *out, const rigor_plugin_t *d) {
  fprintf(out, "### Parameters\n\n");
  if (d->n_params == 0) {
    fprintf(out, "None.\n\n");
  } else {
    fprintf(out, "| name | type | default | range / choices | help |\n|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < d->n_params; i++) {
      const rigor_param_t *p = &d->params[i];
      char range[1024];
      choices_text(p, range, sizeof range);
      fprintf(out, "| `%s` | %s | %s%s%s | %s | %s |\n", p->name, rigor_param_type_name(p->type),
              p->def ? "`" : "", p->def ? p->def : "", p->def ? "`" : "", range,
              p->help ? p->help : "");
    }
    fprintf(out, "\n");
  }
  fprintf(out, "### Metrics\n\n");
  if (d->n_metrics == 0) fprintf(out, "None%s.\n", d->declare_metrics ? " of its own" : "");
  if (d->n_metrics) fprintf(out, "| name | unit | better | help |\n|---|---|---|---|\n");
  for (uint32_t i = 0; i < d->n_metrics; i++) {
    const rigor_metric_t *m = &d->metrics[i];
    fprintf(out, "| `%s` | %s | %s | %s |\n", m->name, m->unit ? m->unit : "",
            rigor_better_name(m->better), m->help ? m->help : "");
  }
  if (d->declare_metrics) fprintf(out, "\nThe params declare further metrics (declare_metrics).\n");
  if (d->primary_metric)
    fprintf(out,
            "\nPrimary figure: `%s` (what report, gate, contrasts, compare and rounds judge).\n",
            d->primary_metric);
}

static void print_text(FILE *out, const rigor_loaded_t *l) {
  const rigor_plugin_t *d = &l->desc;
  fprintf(out, "%s %s: %s\n  file: %s\n", d->name, d->version ? d->version : "",
          d->summary ? d->summary : "", l->origin);
  fprintf(out, "\nparameters:\n");
  if (d->n_params == 0) fprintf(out, "  (none)\n");
  for (uint32_t i = 0; i < d->n_params; i++) {
    const rigor_param_t *p = &d->params[i];
    char range[1024];
    choices_text(p, range, sizeof range);
    fprintf(out, "  %-20s %-7s default %-10s %s%s%s\n", p->name, rigor_param_type_name(p->type),
            p->def ? p->def : "-", range[0] ? "[" : "", range, range[0] ? "]" : "");
    if (p->help) fprintf(out, "  %-20s %s\n", "", p->help);
  }
  fprintf(out, "\nmetrics:\n");
  if (d->n_metrics == 0 && !d->declare_metrics) fprintf(out, "  (none)\n");
  for (uint32_t i = 0; i < d->n_metrics; i++) {
    const rigor_metric_t *m = &d->metrics[i];
    fprintf(out, "  %-24s %-10s %s%s%s\n", m->name, m->unit ? m->unit : "",
            m->better == RIGOR_NOT_A_FIGURE       ? "not a figure"
            : m->better == RIGOR_HIGHER_IS_BETTER ? "higher is better"
                                                  : "lower is better",
            m->help ? ": " : "", m->help ? m->help : "");
  }
  if (d->declare_metrics) fprintf(out, "  and those the params declare\n");
  if (d->primary_metric)
    fprintf(out, "\nprimary figure: %s (what report, gate, contrasts, compare and rounds judge)\n",
            d->primary_metric);
  char caps[512];
  rigor_caps_describe(d->capabilities, caps, sizeof caps);
  fprintf(out, "\ncapabilities: %s (%s)\n", caps,
          d->capabilities & RIGOR_CAP_DECLARED ? "declared" : "inferred from its hooks");
}

static const char about[] =
    "Lists the plugins found on the search path (--plugin-path folders, then RIGOR_PLUGIN_PATH,\n"
    "then the installed plugins; the first folder that holds a name wins). With NAME: its file,\n"
    "its params (type, default, range, help) and its metrics (unit, which way is better).\n";

static void print_list(FILE *out, rigor_loaded_t **list, size_t n, bool names_only, bool md) {
  for (size_t i = 0; i < n; i++) {
    const rigor_plugin_t *d = &list[i]->desc;
    if (names_only)
      fprintf(out, "%s\n", d->name);
    else if (md)
      fprintf(out, "| `%s` | %s | %s |\n", d->name, d->version ? d->version : "",
              d->summary ? d->summary : "");
    else
      fprintf(out, "%-12s %-8s %s\n", d->name, d->version ? d->version : "",
              d->summary ? d->summary : "");
  }
}

int rigor_cmd_plugins(int argc, char **argv) {
  const char *format = NULL, *out_path = NULL;
  bool names_only = false;
  rigor_strings_t dirs = {0}, names = {0};
  rigor_plugin_search_t search = {0};
  const rigor_option_t options[] = {
      {"format", 0, "FORMAT", "text (default), or md: the tables a plugin README embeds",
       .value = &format},
      {"names", 0, NULL, "names only, one a line", .flag = &names_only},
      {"output", 'o', "OUT", "write to OUT instead of standard output", .value = &out_path},
      {"plugin-path", 0, "DIR", "search DIR for plugins first (repeatable; the first found wins)",
       .list = &dirs},
      {"allow-unsafe-plugin-path", 0, NULL, "accept world-writable plugin folders",
       .flag = &search.allow_unsafe},
      {0},
  };
  const rigor_command_t cmd = {"plugins", "[NAME] [OPTION]...", about, options};
  static const char *const formats[] = {"text", "md", NULL};
  int code = rigor_args_parse(&cmd, argc, argv, &names);
  if (code < 0 && names.n > 1)
    code = rigor_usage_error(&cmd, "describes one plugin at a time, not %zu", names.n);
  int fmt = code < 0 && format ? rigor_args_choice(&cmd, "--format", format, formats) : 0;
  if (fmt < 0) code = RIGOR_EXIT_USAGE;
  static const char *const none[] = {NULL};
  search.extra_dirs = dirs.v ? dirs.v : none;
  FILE *out = code < 0 ? rigor_output_open(&cmd, out_path) : NULL;
  if (code < 0 && !out) code = RIGOR_EXIT_CANNOT_WRITE;
  if (code >= 0) goto done;
  code = RIGOR_EXIT_OK;
  if (names.n) {
    rigor_loaded_t *l = NULL;
    char err[2048];
    if (rigor_plugin_load(names.v[0], &search, &l, err, sizeof err) < 0) {
      fprintf(stderr, "rigor plugins: %s\n", err);
      code = RIGOR_EXIT_USAGE;
    } else {
      if (l->shadowed)
        fprintf(stderr, "rigor: note: plugin '%s' from %s shadows %s\n", names.v[0], l->origin,
                l->shadowed);
      if (fmt == 1)
        print_md(out, &l->desc);
      else
        print_text(out, l);
    }
    rigor_plugin_unload(l);
  } else {
    rigor_loaded_t **list = NULL;
    size_t n = 0;
    rigor_plugin_list(&search, &list, &n, names_only ? NULL : warn_print, NULL);
    print_list(out, list, n, names_only, fmt == 1);
    for (size_t i = 0; i < n; i++)
      rigor_plugin_unload(list[i]);
    free(list);
    if (n == 0 && !names_only) fprintf(stderr, "rigor plugins: no plugins found\n");
  }
  if (rigor_output_close(&cmd, out_path, out) && code == RIGOR_EXIT_OK)
    code = RIGOR_EXIT_CANNOT_WRITE;
done:
  rigor_strings_free(&dirs);
  rigor_strings_free(&names);
  return code;
}
