#include "report_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "units.h"

enum { MAX_COLUMNS = 64 };

bool rigor_report_view_option(const char *arg) {
  return strcmp(arg, "--table") == 0 || strcmp(arg, "--columns") == 0 ||
         strcmp(arg, "--width") == 0;
}

int rigor_report_view_set(rigor_report_view_t *v, const char *cmd, const char *arg,
                          const char *value) {
  if (strcmp(arg, "--table") == 0) {
    v->table = value;
  } else if (strcmp(arg, "--columns") == 0) {
    v->columns = value;
  } else {
    int64_t w;
    char err[256];
    if (rigor_parse_int(value, &w, err, sizeof err) || w < 0 || w > 100000) {
      fprintf(stderr, "rigor %s: --width takes a number of columns (0: no limit), not '%s'\n", cmd,
              value);
      return -1;
    }
    v->width = (int)w;
  }
  return 0;
}

/* $COLUMNS, as shells export it, else the terminal's width, else no limit (a pipe or file). */
static int terminal_width(void) {
  const char *env = getenv("COLUMNS");
  if (env && *env) {
    char *end;
    long n = strtol(env, &end, 10);
    if (*end == '\0' && n > 0 && n <= 100000) return (int)n;
  }
  struct winsize ws;
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  return 0;
}

int rigor_report_view_apply(const rigor_report_view_t *v, const char *cmd, rigor_doc_t *doc) {
  doc->width = v->width >= 0 ? v->width : terminal_width();
  const char *names[MAX_COLUMNS];
  size_t n = 0;
  char *copy = v->columns ? strdup(v->columns) : NULL;
  if (v->columns && !copy) return -1;
  char *save = NULL;
  for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && n < MAX_COLUMNS;
       tok = strtok_r(NULL, ",", &save)) {
    while (*tok == ' ')
      tok++;
    if (*tok) names[n++] = tok;
  }
  char err[8192] = "";
  int rc = 0;
  if (v->columns && n == 0) {
    fprintf(stderr, "rigor %s: --columns takes a comma-separated list of column names\n", cmd);
    rc = -1;
  } else if ((v->table || n) && rigor_doc_select(doc, v->table, names, n, err, sizeof err)) {
    fprintf(stderr, "rigor %s: %s\n", cmd, err[0] ? err : "out of memory");
    rc = -1;
  }
  free(copy);
  return rc;
}
