/* rigor ab: "is B faster than A, and by how much" in one line. Commands typed on the command
 * line become the arms of an exec experiment (written to a temporary file, never to the user's
 * folders), interleaved in every run and replicated until the answer is precise or the deadline
 * passes; a config with --build or an interleaved axis runs as it is. The answer is read back
 * from the results file, which is always written. */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <limits.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "contrast_doc.h"
#include "units.h"

static const char about[] =
    "Is B faster than A, and by how much. Two or more COMMANDs (shell command lines) run as\n"
    "interleaved arms of one experiment: every run hosts all of them and measures them in turn,\n"
    "alternating which goes first (ABBA), and runs are added until every ratio against the first\n"
    "is known to --precision, every verdict at --threshold is beyond doubt (unless --precise), or\n"
    "--deadline passes. Commands typed here need no --allow-commands.\n"
    "With a CONFIG, its experiment runs as written: --build LABEL=DIR (twice or more) interleaves\n"
    "the builds, and --axis names the interleaved axis to answer for. Prints one answer per arm,\n"
    "e.g. `B ran 1.35x faster than A [1.33, 1.37] +-1.0%, 14 runs x 10 pairs, 1 m 12 s`, and\n"
    "writes the results file (-o). Exit 4 when an arm is slower than the first, as compare.\n";

typedef struct ab_args {
  rigor_strings_t names, builds, positional;
  const char *prepare, *warmup, *cycles, *precision, *deadline, *min_runs, *max_runs;
  const char *threshold, *output, *format, *axis;
  bool allow_commands, quiet, precise;
} ab_args_t;

/* replicates.decided at the verdicts' threshold: the answer ends the runs once it is beyond
 * doubt, before the intervals reach --precision (unless --precise). */
static void set_decided(json_t *order, double decided) {
  if (!(decided > 0)) return;
  char text[32];
  snprintf(text, sizeof text, "%g%%", decided * 100);
  json_object_set_new(json_object_get(order, "replicates"), "decided", json_string(text));
}

/* A label a user may give an arm: what the config language accepts in a level's label. */
static bool label_ok(const char *s) {
  if (!*s) return false;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && !strchr("_.+-", *s)) return false;
  return true;
}

/* results/ab-YYYYMMDD-HHMMSS.jsonl: a new file per answer, so none is ever replaced. */
static void default_output(char *buf, size_t len) {
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  char stamp[32];
  strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  snprintf(buf, len, "results/ab-%s.jsonl", stamp);
}

static uint64_t fresh_seed(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20);
}

/* The experiment of typed commands, as JSON (which the YAML reader takes as written): the
 * exec plugin through the shell, each command one arm of the `command` axis. */
static char *commands_config(const ab_args_t *a, const char *output, uint64_t min_runs,
                             uint64_t max_runs, double precision, double decided, double deadline_s,
                             uint64_t warmup, uint64_t cycles) {
  json_t *levels = json_array();
  for (size_t i = 0; i < a->positional.n; i++) {
    char label[64];
    if (i < a->names.n)
      snprintf(label, sizeof label, "%s", a->names.v[i]);
    else
      snprintf(label, sizeof label, "%c", (char)('A' + i));
    json_array_append_new(levels,
                          json_pack("{s:s, s:s}", "label", label, "value", a->positional.v[i]));
  }
  json_t *params = json_pack("{s:b, s:s}", "shell", 1, "command", a->positional.v[0]);
  if (a->prepare) json_object_set_new(params, "prepare", json_string(a->prepare));
  char precision_text[32], deadline_text[32];
  snprintf(precision_text, sizeof precision_text, "%g%%", precision * 100);
  snprintf(deadline_text, sizeof deadline_text, "%gs", deadline_s);
  json_t *cfg = json_pack(
      "{s:i, s:s, s:s, s:s, s:o, s:{s:o}, s:{s:s, s:{s:I, s:I, s:s}}, s:{s:I, s:I, s:i}, s:s, "
      "s:s}",
      "schema", 1, "name", "ab", "description", "rigor ab: the commands as interleaved arms",
      "plugin", "exec", "params", params, "matrix", "command", levels, "order", "interleave",
      "command", "replicates", "min", (json_int_t)min_runs, "max", (json_int_t)max_runs,
      "precision", precision_text, "timing", "warmup", (json_int_t)warmup, "cycles",
      (json_int_t)cycles, "iters", 1, "deadline", deadline_text, "output", output);
  /* A seed of its own each time, recorded: which arm starts the first run is drawn from it. */
  json_object_set_new(json_object_get(cfg, "order"), "seed",
                      json_integer((json_int_t)(fresh_seed() & 0x7fffffff)));
  set_decided(json_object_get(cfg, "order"), decided);
  char *text = cfg ? json_dumps(cfg, JSON_INDENT(2)) : NULL;
  json_decref(cfg);
  return text;
}

/* A CONFIG under rigor ab's stop rule: a file that extends it (found through --config-path, its
 * own folder, so its relative paths and its own extends keep their meaning) with ab's
 * replicates, deadline and seed, and the axis to interleave when --axis names one. */
static char *config_wrapper(const char *base_name, const char *axis, uint64_t min_runs,
                            uint64_t max_runs, double precision, double decided, double deadline_s,
                            uint64_t seed) {
  char precision_text[32], deadline_text[32];
  snprintf(precision_text, sizeof precision_text, "%g%%", precision * 100);
  snprintf(deadline_text, sizeof deadline_text, "%gs", deadline_s);
  json_t *order = json_pack("{s:{s:I, s:I, s:s}, s:I}", "replicates", "min", (json_int_t)min_runs,
                            "max", (json_int_t)max_runs, "precision", precision_text, "seed",
                            (json_int_t)(seed & 0x7fffffff));
  if (axis) json_object_set_new(order, "interleave", json_string(axis));
  set_decided(order, decided);
  json_t *cfg =
      json_pack("{s:s, s:o, s:s}", "extends", base_name, "order", order, "deadline", deadline_text);
  char *text = cfg ? json_dumps(cfg, JSON_INDENT(2)) : NULL;
  json_decref(cfg);
  return text;
}

static int write_temp_config(const char *text, char *path, size_t len) {
  const char *tmp = getenv("TMPDIR");
  snprintf(path, len, "%s/rigor-ab-XXXXXX.yaml", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemps(path, 5);
  if (fd < 0) return -1;
  size_t n = strlen(text);
  bool ok = write(fd, text, n) == (ssize_t)n;
  ok = close(fd) == 0 && ok;
  if (!ok) unlink(path);
  return ok ? 0 : -1;
}

/* "1 m 12 s", "8.4 s" */
static void fmt_elapsed(char *buf, size_t len, double s) {
  if (s >= 60)
    snprintf(buf, len, "%d m %02d s", (int)(s / 60), (int)fmod(s, 60));
  else
    snprintf(buf, len, "%.1f s", s);
}

/* Three decimals below 10, so that 0.9988 never reads as 1 and [1.003, ...] as [1, ...]. */
static void fmt_ratio(char *buf, size_t len, double v) {
  snprintf(buf, len, v < 10 ? "%.3f" : "%.4g", v);
}

/* One arm's answer: the factor, its interval and half-width, what it stands on, the verdict
 * when it claims no direction. */
static void answer(const rigor_contrast_t *c, double elapsed_s) {
  char when[32];
  fmt_elapsed(when, sizeof when, elapsed_s);
  if (!isfinite(c->ratio) || !isfinite(c->lo) || !isfinite(c->hi)) {
    printf("%s against %s: %s (%s), %s\n", c->label, c->ref_label,
           rigor_cmp_verdict_name(c->verdict), c->reason, when);
    return;
  }
  bool slower = c->cost.worse;
  const char *word = strcmp(c->figure, "time_s") == 0 ? (slower ? "slower" : "faster")
                                                      : (slower ? "worse" : "better");
  char pairs[64] = "";
  if (c->interleaved && c->n_pairs)
    snprintf(pairs, sizeof pairs, " x %.0f pairs", (double)c->n_windows / (double)c->n_pairs);
  char fs[32], ls[32], hs[32];
  fmt_ratio(fs, sizeof fs, c->cost.factor);
  fmt_ratio(ls, sizeof ls, c->cost.factor_lo);
  fmt_ratio(hs, sizeof hs, c->cost.factor_hi);
  printf("%s ran %s× %s than %s [%s, %s] ±%.1f%%, %zu %s%s, %s", c->label, fs, word, c->ref_label,
         ls, hs, expm1(c->half_width) * 100, c->n_pairs, c->interleaved ? "runs" : "blocks", pairs,
         when);
  if (c->verdict != RIGOR_CMP_FASTER && c->verdict != RIGOR_CMP_SLOWER)
    printf(": %s (%s)", rigor_cmp_verdict_name(c->verdict), c->reason);
  printf("\n");
}

/* The answers of the results file: the interleaved axis's contrasts (or `axis`), against its
 * first level. Returns the exit code: 4 when an arm is slower. */
static int answers(const char *path, const char *axis, double threshold, double elapsed_s) {
  rigor_analysis_t *an = NULL;
  char err[1024];
  if (rigor_analysis_load(&path, 1, &an, err, sizeof err) != 0) {
    fprintf(stderr, "rigor ab: %s\n", err);
    return RIGOR_EXIT_RUN_FAILED;
  }
  int code = RIGOR_EXIT_OK;
  for (size_t x = 0; x < an->n_exps; x++) {
    const rigor_exp_analysis_t *e = &an->exps[x];
    const char *il = json_string_value(json_object_get(
        json_object_get(json_object_get(e->record, "schedule"), "interleave"), "axis"));
    const char *which = axis ? axis : il;
    rigor_contrast_opts_t o;
    rigor_contrast_opts_default(&o);
    o.threshold = threshold;
    rigor_contrasts_t *set = NULL;
    if (rigor_contrasts_build_opts(e, which, NULL, &o, &set) != 0) {
      char why[512] = "";
      if (which) rigor_axis_check(e, which, NULL, why, sizeof why);
      fprintf(stderr, "rigor ab: %s: %s\n", e->name,
              which ? why : "no interleaved axis to answer for (--axis names one)");
      code = RIGOR_EXIT_USAGE;
      continue;
    }
    for (size_t i = 0; i < set->n; i++) {
      if (an->n_exps > 1) printf("%s: ", e->name);
      answer(&set->items[i], elapsed_s);
      if (set->items[i].verdict == RIGOR_CMP_SLOWER && code == RIGOR_EXIT_OK)
        code = RIGOR_EXIT_REGRESSION;
    }
    if (set->n == 0)
      fprintf(stderr, "rigor ab: %s: no contrast could be formed (no run finished?)\n", e->name);
    rigor_contrasts_free(set);
  }
  rigor_analysis_free(an);
  return code;
}

static int parse_uint_opt(const rigor_command_t *cmd, const char *name, const char *text,
                          uint64_t *out, uint64_t lo, uint64_t hi) {
  char err[256];
  if (!text) return -1;
  if (rigor_parse_uint(text, out, err, sizeof err) || *out < lo || *out > hi)
    return rigor_usage_error(cmd, "--%s takes a whole number from %llu to %llu, not '%s'", name,
                             (unsigned long long)lo, (unsigned long long)hi, text);
  return -1;
}

int rigor_cmd_ab(int argc, char **argv) {
  ab_args_t a = {0};
  const rigor_option_t options[] = {
      {"name", 'n', "NAME", "the next command's name in the answer (repeatable; default A, B...)",
       .list = &a.names},
      {"prepare", 0, "CMD", "a command run before every timed window, untimed",
       .value = &a.prepare},
      {"warmup", 'w', "N", "untimed windows per arm before measuring (default 1)",
       .value = &a.warmup},
      {"cycles", 0, "N", "window pairs per run (default 10)", .value = &a.cycles},
      {"precision", 0, "PCT", "stop when every interval's half-width is this (default 1%)",
       .value = &a.precision},
      {"deadline", 0, "TIME", "stop adding runs after this long (default 2m)",
       .value = &a.deadline},
      {"min-runs", 0, "N", "runs before the first stop decision (default 4)", .value = &a.min_runs},
      {"max-runs", 0, "N", "runs at most (default 200)", .value = &a.max_runs},
      {"threshold", 0, "PCT", "the smallest change that counts (default 2%)",
       .value = &a.threshold},
      {"precise", 0, NULL,
       "run to --precision even once every verdict is beyond doubt (by default the answer "
       "ends the runs)",
       .flag = &a.precise},
      {"output", 'o', "OUT", "the results file (default results/ab-DATE-TIME.jsonl)",
       .value = &a.output},
      {"format", 0, "FORMAT", "after the answers, the whole report: text, md, csv, json or html",
       .value = &a.format},
      {"build", 0, "LABEL=DIR", "with CONFIG: a build of its plugin (twice or more)",
       .list = &a.builds},
      {"axis", 0, "AXIS", "with CONFIG: the axis whose levels to answer for", .value = &a.axis},
      {"allow-commands", 0, NULL, "with CONFIG: let it execute the commands `rigor plan` shows",
       .flag = &a.allow_commands},
      {"quiet", 'q', NULL, "no progress lines, only the answers", .flag = &a.quiet},
      {0},
  };
  const rigor_command_t cmd = {
      "ab",
      "COMMAND COMMAND... [OPTION]...\nCONFIG [--build LABEL=DIR]... [--axis AXIS] [OPTION]...",
      about, options};
  int code = rigor_args_parse(&cmd, argc, argv, &a.positional);
  struct stat st;
  bool config_mode =
      code < 0 && a.positional.n == 1 && stat(a.positional.v[0], &st) == 0 && S_ISREG(st.st_mode);
  uint64_t min_runs = 4, max_runs = 200, warmup = 1, cycles = 10;
  double precision = 0.01, deadline_s = 120, threshold = 0.02;
  char err[256];
  if (code < 0) code = parse_uint_opt(&cmd, "min-runs", a.min_runs, &min_runs, 2, 100000);
  if (code < 0) code = parse_uint_opt(&cmd, "max-runs", a.max_runs, &max_runs, 2, 100000);
  if (code < 0) code = parse_uint_opt(&cmd, "warmup", a.warmup, &warmup, 0, 1000000);
  if (code < 0) code = parse_uint_opt(&cmd, "cycles", a.cycles, &cycles, 2, 1000000);
  if (code < 0 && a.precision && rigor_parse_percent(a.precision, &precision, err, sizeof err))
    code = rigor_usage_error(&cmd, "--precision: %s", err);
  if (code < 0 && a.threshold && rigor_parse_percent(a.threshold, &threshold, err, sizeof err))
    code = rigor_usage_error(&cmd, "--threshold: %s", err);
  if (code < 0 && a.deadline && rigor_parse_duration(a.deadline, &deadline_s, err, sizeof err))
    code = rigor_usage_error(&cmd, "--deadline: %s", err);
  if (code < 0 && min_runs > max_runs)
    code = rigor_usage_error(&cmd, "--min-runs (%llu) is more than --max-runs (%llu)",
                             (unsigned long long)min_runs, (unsigned long long)max_runs);
  if (code < 0 && !config_mode && (a.builds.n || a.axis))
    code = rigor_usage_error(&cmd, "--build and --axis need a CONFIG file as the one argument");
  if (code < 0 && !config_mode && a.positional.n < 2)
    code = rigor_usage_error(&cmd, "needs two or more commands, or one CONFIG file%s",
                             a.positional.n == 1 ? " (the one argument is no file)" : "");
  if (code < 0 && !config_mode && a.positional.n > 26)
    code = rigor_usage_error(&cmd, "takes at most 26 commands, not %zu", a.positional.n);
  if (code < 0 && a.names.n > a.positional.n)
    code = rigor_usage_error(&cmd, "%zu --name for %zu commands", a.names.n, a.positional.n);
  for (size_t i = 0; code < 0 && i < a.names.n; i++) {
    if (!label_ok(a.names.v[i]))
      code = rigor_usage_error(&cmd,
                               "--name '%s': a name is letters, digits and _ . + - (it labels a "
                               "level)",
                               a.names.v[i]);
    for (size_t j = 0; code < 0 && j < i; j++)
      if (!strcmp(a.names.v[i], a.names.v[j]))
        code = rigor_usage_error(&cmd, "--name '%s' is given twice", a.names.v[i]);
  }
  if (code < 0 && a.format && !rigor_args_writer(&cmd, a.format)) code = RIGOR_EXIT_USAGE;
  if (code >= 0) {
    rigor_strings_free(&a.names), rigor_strings_free(&a.builds), rigor_strings_free(&a.positional);
    return code;
  }

  char output[1024], config[1100] = "";
  if (a.output)
    snprintf(output, sizeof output, "%s", a.output);
  else
    default_output(output, sizeof output);
  char config_dir[1100] = "";
  if (config_mode) {
    /* The config's folder is where its wrapper finds it (--config-path), by its file name. */
    char real[PATH_MAX];
    if (!realpath(a.positional.v[0], real)) real[0] = '\0';
    char *slash = strrchr(real, '/');
    if (slash) {
      *slash = '\0';
      snprintf(config_dir, sizeof config_dir, "%s", real[0] ? real : "/");
    }
    if (a.prepare || a.warmup || a.cycles || a.names.n)
      fprintf(stderr, "rigor ab: --prepare, --warmup, --cycles and --name apply to typed commands; "
                      "the CONFIG's own settings run\n");
    char *text = config_wrapper(slash ? slash + 1 : a.positional.v[0], a.axis, min_runs, max_runs,
                                precision, a.precise ? 0 : threshold, deadline_s, fresh_seed());
    if (!text || write_temp_config(text, config, sizeof config) != 0) {
      fprintf(stderr, "rigor ab: cannot write the experiment to %s: %s\n",
              config[0] ? config : "TMPDIR", strerror(errno));
      free(text);
      rigor_strings_free(&a.names), rigor_strings_free(&a.builds),
          rigor_strings_free(&a.positional);
      return RIGOR_EXIT_USAGE;
    }
    free(text);
  } else {
    char *text = commands_config(&a, output, min_runs, max_runs, precision,
                                 a.precise ? 0 : threshold, deadline_s, warmup, cycles);
    if (!text || write_temp_config(text, config, sizeof config) != 0) {
      fprintf(stderr, "rigor ab: cannot write the experiment to %s: %s\n",
              config[0] ? config : "TMPDIR", strerror(errno));
      free(text);
      rigor_strings_free(&a.names), rigor_strings_free(&a.builds),
          rigor_strings_free(&a.positional);
      return RIGOR_EXIT_USAGE;
    }
    free(text);
    if (!a.quiet)
      for (size_t i = 0; i < a.positional.n; i++) {
        char label[64];
        if (i < a.names.n)
          snprintf(label, sizeof label, "%s", a.names.v[i]);
        else
          snprintf(label, sizeof label, "%c", (char)('A' + i));
        fprintf(stderr, "rigor ab: %s = %s\n", label, a.positional.v[i]);
      }
  }
  /* rigor run does the running: the same gate, progress, heartbeat and stop rule. */
  char *rargv[64];
  int n = 0;
  rargv[n++] = "run";
  rargv[n++] = config;
  char config_path_arg[1200];
  if (config_mode) {
    snprintf(config_path_arg, sizeof config_path_arg, "--config-path=%s", config_dir);
    rargv[n++] = config_path_arg;
  }
  rargv[n++] = "-o";
  rargv[n++] = output;
  rargv[n++] = "--no-report";
  if (!config_mode || a.allow_commands) rargv[n++] = "--allow-commands";
  if (a.quiet) rargv[n++] = "--quiet";
  char build_args[16][1100];
  for (size_t i = 0; i < a.builds.n && i < 16; i++) {
    snprintf(build_args[i], sizeof build_args[i], "--build=%s", a.builds.v[i]);
    rargv[n++] = build_args[i];
  }
  rargv[n] = NULL;
  uint64_t t0 = rigor_now_ns();
  code = rigor_cmd_run(n, rargv);
  double elapsed_s = (double)(rigor_now_ns() - t0) / 1e9;
  if (config[0]) unlink(config);
  if (code == RIGOR_EXIT_OK || code == RIGOR_EXIT_CHECK_FAILED) {
    fflush(stderr);
    int answered = answers(output, a.axis, threshold, elapsed_s);
    if (answered != RIGOR_EXIT_OK && code == RIGOR_EXIT_OK) code = answered;
    if (!a.quiet) fprintf(stderr, "rigor ab: results in %s\n", output);
    if (a.format) {
      fflush(stdout);
      char *rep[] = {"report", output, "--format", (char *)a.format, NULL};
      rigor_cmd_report(4, rep);
    }
  }
  rigor_strings_free(&a.names), rigor_strings_free(&a.builds), rigor_strings_free(&a.positional);
  return code;
}
