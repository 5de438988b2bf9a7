/* The command line's conventions, against the real binary: --name=value and --name value,
 * -o/--output on every command that writes, one wording for usage errors with did-you-mean,
 * --help listing every option, several files for validate and plan, and the heartbeat on a
 * stderr that is no terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_files.h"

static char dir[1024];

/* Every subcommand a user can call. */
static const char *const commands[] = {"run",     "ab",     "plan",    "validate",  "config",
                                       "plugins", "report", "compare", "rounds",    "import",
                                       "history", "store",  "check",   "new-plugin", "screen"};
#define N_COMMANDS (sizeof commands / sizeof *commands)

typedef struct result {
  int rc;
  char *out; /* stdout */
  char *err; /* stderr */
} result_t;

static char *slurp(const char *path) {
  char *text = test_slurp(path, NULL);
  return text ? text : strdup("");
}

/* Runs `rigor ARGS` (shell text) in the scratch folder, stdout and stderr apart, stdin empty. */
static result_t rigor(const char *fmt, ...) {
  result_t r;
  va_list ap;
  va_start(ap, fmt);
  r.rc = test_rigor_vin(dir, NULL, &r.out, &r.err, fmt, ap);
  va_end(ap);
  return r;
}

static void result_free(result_t *r) {
  free(r->out);
  free(r->err);
}

static void write_text(const char *name, const char *text) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static char *read_text(const char *name) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return slurp(path);
}

static size_t count(const char *text, const char *needle) {
  size_t n = 0;
  for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

#define ASSERT_HAS(text, needle)                                                                   \
  do {                                                                                             \
    if (!strstr((text), (needle))) fail_msg("expected '%s' in:\n%s", (needle), (text));            \
  } while (0)

/* Two experiments on the shipped null plugin, and their results, made once. */
static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "%s/cli-scratch", RIGOR_BINARY_DIR "/tests");
  char cmd[2200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
  if (system(cmd) != 0) return -1;
  write_text("a.yaml", "schema: 1\n"
                       "name: alpha\n"
                       "plugin: null\n"
                       "params: {bytes: 1KiB}\n"
                       "timing: {warmup: 0, cycles: 3, iters: 4}\n"
                       "matrix:\n"
                       "  spin_ns: [20000, 21000]\n"
                       "order: {design: mirrored, replicates: 2}\n"
                       "output: a.jsonl\n");
  write_text("b.yaml", "schema: 1\n"
                       "name: beta\n"
                       "plugin: null\n"
                       "timing: {warmup: 0, cycles: 3, iters: 4}\n"
                       "output: b.jsonl\n");
  /* One run of four 0.4-second cycles: long enough for a heartbeat at 1 s. */
  write_text("slow.yaml", "schema: 1\n"
                          "name: slow\n"
                          "plugin: null\n"
                          "params: {spin_ns: 400000000}\n"
                          "timing: {warmup: 0, cycles: 4, iters: 1}\n"
                          "output: slow.jsonl\n");
  write_text("bad.yaml", "schema: 1\n"
                         "name: gamma\n"
                         "plugin: null\n"
                         "timing: {cycels: 3}\n");
  return 0;
}

static void test_usage_errors_read_one_way(void **state) {
  (void)state;
  for (size_t i = 0; i < N_COMMANDS; i++) {
    result_t r = rigor("%s --no-such-option", commands[i]);
    assert_int_equal(r.rc, 2);
    char first[256], usage[256], see[256];
    snprintf(first, sizeof first, "rigor %s: unknown option '--no-such-option'", commands[i]);
    snprintf(usage, sizeof usage, "\nusage: rigor %s", commands[i]);
    snprintf(see, sizeof see, "See 'rigor %s --help'.\n", commands[i]);
    if (strncmp(r.err, first, strlen(first)) != 0) fail_msg("%s: stderr:\n%s", commands[i], r.err);
    ASSERT_HAS(r.err, usage);
    ASSERT_HAS(r.err, see);
    assert_string_equal(r.out, "");
    result_free(&r);
  }
}

static void test_did_you_mean(void **state) {
  (void)state;
  result_t r = rigor("plan a.yaml --outptu p.txt");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "rigor plan: unknown option '--outptu' (did you mean '--output'?)");
  result_free(&r);
  r = rigor("valdiate a.yaml");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "rigor: unknown command 'valdiate' (did you mean 'validate'?)");
  result_free(&r);
  r = rigor("plugins nul");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "no plugin named 'nul' (did you mean 'null'?)");
  result_free(&r);
  write_text("typo.yaml", "schema: 1\nname: t\nplugin: nul\n");
  r = rigor("validate typo.yaml");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "typo.yaml:3:9: plugin 'nul': no plugin named 'nul' (did you mean 'null'?)");
  result_free(&r);
  r = rigor("report a.jsonl --format jsno");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "rigor report: --format takes text, md, csv, json or html, not 'jsno' "
                    "(did you mean 'json'?)");
  result_free(&r);
}

static void test_missing_value_and_flag_with_value(void **state) {
  (void)state;
  result_t r = rigor("plan a.yaml -o");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "rigor plan: option '-o' needs a value");
  result_free(&r);
  r = rigor("report a.jsonl --format");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "rigor report: option '--format' needs a value");
  result_free(&r);
  r = rigor("run a.yaml --force=yes");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "rigor run: option '--force' takes no value");
  result_free(&r);
}

/* `rigor run` first: the later tests read its results. */
static void test_heartbeat_when_stderr_is_no_terminal(void **state) {
  (void)state;
  result_t r = rigor("run a.yaml --force --no-report");
  assert_int_equal(r.rc, 0);
  /* 2 variants x 2 mirrored replicates: 4 runs, a line each, in order. */
  assert_int_equal(count(r.err, ": ok in "), 4);
  for (int k = 1; k <= 4; k++) {
    char line[64];
    snprintf(line, sizeof line, "rigor: [%d/4] alpha spin_ns=", k);
    ASSERT_HAS(r.err, line);
  }
  ASSERT_HAS(r.err, " elapsed, ETA ");
  ASSERT_HAS(r.err, "rigor: alpha: 4 runs -> ");
  assert_null(strchr(r.err, '\r'));
  assert_null(strstr(r.err, "\033["));
  result_free(&r);

  r = rigor("run a.yaml --force -q");
  assert_int_equal(r.rc, 0);
  assert_string_equal(r.err, "");
  assert_string_equal(r.out, "");
  result_free(&r);

  r = rigor("run a.yaml --force --verbose --no-report");
  assert_int_equal(r.rc, 0);
  assert_int_equal(count(r.err, ": starts (run "), 4);
  assert_int_equal(count(r.err, ": ok in "), 4);
  result_free(&r);

  r = rigor("run a.yaml --force -q -v");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "rigor run: --quiet and --verbose contradict each other");
  result_free(&r);
}

/* While a run goes on, a log gets "rigor: [k/N] EXPERIMENT VARIANT: running M:SS, C/N cycles
 * done; M:SS elapsed" at the interval; --heartbeat 0 turns it off. */
static void test_heartbeat_lines_during_a_run(void **state) {
  (void)state;
  result_t r = rigor("run slow.yaml --force --no-report --heartbeat 1");
  assert_int_equal(r.rc, 0);
  const char *line = strstr(r.err, ": running ");
  if (!line) fail_msg("no heartbeat line in:\n%s", r.err);
  while (line > r.err && line[-1] != '\n')
    line--;
  char experiment[32], label[64];
  unsigned k, n, run_min, run_sec, done, cycles, min, sec;
  char end;
  int got = sscanf(line,
                   "rigor: [%u/%u] %31s %63[^:]: running %u:%2u, %u/%u cycles done; %u:%2u "
                   "elapsed%c",
                   &k, &n, experiment, label, &run_min, &run_sec, &done, &cycles, &min, &sec, &end);
  if (got != 11) fail_msg("a heartbeat line of another shape (%d fields read):\n%s", got, r.err);
  assert_int_equal(k, 1);
  assert_int_equal(n, 1);
  assert_string_equal(experiment, "slow");
  assert_int_equal(cycles, 4);
  assert_true(done <= cycles);
  assert_true(run_min * 60 + run_sec <= min * 60 + sec);
  assert_int_equal(end, '\n');
  ASSERT_HAS(r.err, "rigor: [1/1] slow ");
  ASSERT_HAS(r.err, ": ok in ");
  result_free(&r);

  r = rigor("run slow.yaml --force --no-report --heartbeat 0");
  assert_int_equal(r.rc, 0);
  assert_null(strstr(r.err, ": running "));
  result_free(&r);

  r = rigor("run slow.yaml --force --heartbeat soon");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "rigor run: --heartbeat takes seconds from 0 (none) to 86400, not 'soon'");
  result_free(&r);
}

/* Before a first run plan can only bound the time; after one it expects the past runs' pace. */
static void test_plan_expects_a_wall_time(void **state) {
  (void)state;
  write_text("auto.yaml", "schema: 1\n"
                          "name: auto\n"
                          "plugin: null\n"
                          "timing: {warmup: 1, cycles: 9, iters: auto, min_window: 50ms, "
                          "timeout: 30s}\n"
                          "sweep: {bytes: [1KiB, 2KiB]}\n"
                          "matrix: {spin_ns: [0, 10]}\n"
                          "order: {replicates: 3}\n"
                          "output: auto.jsonl\n");
  /* 6 runs of 2 points x 10 windows of at least 50 ms: at least 6 s; at most 6 x 30 s. */
  result_t r = rigor("plan auto.yaml");
  assert_int_equal(r.rc, 0);
  ASSERT_HAS(r.out, "  expected time: at least 0:06 (windows of timing.min_window), at most 3:00 "
                    "(timing.timeout per run); no past runs in ");
  result_free(&r);
  r = rigor("plan b.yaml");
  assert_int_equal(r.rc, 0);
  ASSERT_HAS(r.out, "  expected time: at most 5:00 (timing.timeout per run); no past runs in ");
  result_free(&r);

  r = rigor("run slow.yaml --force -q");
  assert_int_equal(r.rc, 0);
  result_free(&r);
  r = rigor("plan slow.yaml");
  assert_int_equal(r.rc, 0);
  ASSERT_HAS(r.out, "  expected time: about 0:0");
  ASSERT_HAS(r.out, " (from 1 past ok run in ");
  result_free(&r);
}

static void test_equals_and_space_forms_agree(void **state) {
  (void)state;
  result_t spaced = rigor("plan a.yaml --only alpha");
  result_t joined = rigor("plan a.yaml --only=alpha");
  assert_int_equal(spaced.rc, 0);
  assert_int_equal(joined.rc, 0);
  assert_string_equal(spaced.out, joined.out);
  ASSERT_HAS(spaced.out, "experiment alpha");
  result_free(&spaced);
  result_free(&joined);
  spaced = rigor("report a.jsonl --format json");
  joined = rigor("report a.jsonl --format=json");
  assert_int_equal(spaced.rc, 0);
  assert_int_equal(joined.rc, 0);
  assert_string_equal(spaced.out, joined.out);
  result_free(&spaced);
  result_free(&joined);
}

/* Each command that writes takes -o/--output and leaves standard output empty. */
static void test_output_on_every_writer(void **state) {
  (void)state;
  static const struct {
    const char *args;
    const char *expect; /* in the written file */
  } writers[] = {
      {"plan a.yaml -o w.txt", "experiment alpha"},
      {"plan a.yaml --output=w.txt", "experiment alpha"},
      {"config a.yaml -o w.txt", "\"hash\""},
      {"report a.jsonl --output w.txt", "alpha"},
      {"compare a.jsonl a.jsonl -o w.txt", "alpha"},
      {"rounds a.jsonl a.jsonl -o w.txt", "round"},
      {"plugins --names -o w.txt", "null\n"},
      {"check --format json -o w.txt", "\"check\""},
  };
  for (size_t i = 0; i < sizeof writers / sizeof *writers; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/w.txt", dir);
    unlink(path);
    result_t r = rigor("%s", writers[i].args);
    if (r.rc != 0) fail_msg("rigor %s: exit %d\n%s", writers[i].args, r.rc, r.err);
    if (r.out[0]) fail_msg("rigor %s wrote to stdout:\n%s", writers[i].args, r.out);
    char *written = read_text("w.txt");
    if (!strstr(written, writers[i].expect))
      fail_msg("rigor %s: w.txt lacks '%s':\n%s", writers[i].args, writers[i].expect, written);
    free(written);
    result_free(&r);
  }
}

/* An output that cannot be opened exits 1 on every command, as the exit-code table says; a path
 * under a regular file cannot be opened by anyone, root included. */
static void test_unwritable_output_exits_one_everywhere(void **state) {
  (void)state;
  static const char *const writers[] = {
      "plan a.yaml",
      "config a.yaml",
      "report a.jsonl",
      "compare a.jsonl a.jsonl",
      "rounds a.jsonl a.jsonl",
      "plugins --names",
      "check --format json",
      "store ls --db s.db",
      "history --db s.db",
      "store export --db s.db",
  };
  result_t r = rigor("store add a.jsonl --db s.db --commit c1 -q");
  assert_int_equal(r.rc, 0);
  result_free(&r);
  for (size_t i = 0; i < sizeof writers / sizeof *writers; i++) {
    r = rigor("%s -o a.yaml/w.txt", writers[i]);
    if (r.rc != 1)
      fail_msg("rigor %s -o a.yaml/w.txt: exit %d, not 1\n%s", writers[i], r.rc, r.err);
    ASSERT_HAS(r.err, "cannot write a.yaml/w.txt");
    result_free(&r);
  }
}

static void test_validate_and_plan_take_several_files(void **state) {
  (void)state;
  result_t r = rigor("validate a.yaml b.yaml");
  assert_int_equal(r.rc, 0);
  ASSERT_HAS(r.out, "a.yaml: ok (1 experiment, 2 variants, 4 runs)");
  ASSERT_HAS(r.out, "b.yaml: ok (1 experiment, 1 variant, 1 run)");
  result_free(&r);
  /* A wrong file among good ones: each is still checked, and the exit says which way. */
  r = rigor("validate a.yaml bad.yaml b.yaml");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.out, "a.yaml: ok");
  ASSERT_HAS(r.out, "b.yaml: ok");
  ASSERT_HAS(r.err, "bad.yaml:4:");
  ASSERT_HAS(r.err, "rigor validate: 1 of 3 files are not valid");
  result_free(&r);
  r = rigor("plan a.yaml b.yaml");
  assert_int_equal(r.rc, 0);
  ASSERT_HAS(r.out, "experiment alpha");
  ASSERT_HAS(r.out, "experiment beta");
  result_free(&r);
  /* Nothing is written when one file is wrong. */
  r = rigor("plan a.yaml bad.yaml -o p.txt");
  assert_int_equal(r.rc, 2);
  char path[4200];
  snprintf(path, sizeof path, "%s/p.txt", dir);
  assert_int_not_equal(access(path, F_OK), 0);
  result_free(&r);
}

/* --help lists each option with a line of its own, and every option it lists is one the
 * command accepts. */
static void test_help_lists_every_option(void **state) {
  (void)state;
  for (size_t i = 0; i < N_COMMANDS; i++) {
    result_t r = rigor("%s --help", commands[i]);
    assert_int_equal(r.rc, 0);
    char usage[128];
    snprintf(usage, sizeof usage, "usage: rigor %s", commands[i]);
    if (strncmp(r.out, usage, strlen(usage)) != 0) fail_msg("%s --help:\n%s", commands[i], r.out);
    const char *opts = strstr(r.out, "\noptions:\n");
    if (!opts) fail_msg("%s --help has no options list:\n%s", commands[i], r.out);
    size_t listed = 0;
    for (const char *line = opts + strlen("\noptions:\n"); *line == ' ';) {
      size_t len = strcspn(line, "\n");
      char text[512];
      snprintf(text, sizeof text, "%.*s", (int)len, line);
      const char *name = strstr(text, "--");
      if (!name) fail_msg("%s --help: an option line without --name: '%s'", commands[i], text);
      char option[64];
      snprintf(option, sizeof option, "%.*s", (int)strcspn(name, " "), name);
      /* A label, two spaces, then the line that says what it does. */
      const char *gap = strstr(name, "  ");
      if (!gap || !gap[strspn(gap, " ")])
        fail_msg("%s --help: '%s' says nothing", commands[i], text);
      if (strcmp(option, "--help") != 0) {
        result_t o = rigor("%s %s=x", commands[i], option);
        char unknown[128];
        snprintf(unknown, sizeof unknown, "unknown option '%s'", option);
        if (strstr(o.err, unknown))
          fail_msg("%s refuses the %s its help lists", commands[i], option);
        result_free(&o);
      }
      listed++;
      line += len + (line[len] == '\n');
    }
    assert_true(listed >= 1);
    ASSERT_HAS(opts, "-h, --help");
    result_free(&r);
  }
}

static void test_rounds_refuses_an_unknown_metric(void **state) {
  (void)state;
  result_t r = rigor("rounds a.jsonl a.jsonl --metric opz");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "rigor rounds: --metric: no row of these files has a metric 'opz' (did you "
                    "mean 'ops'?); they have ops");
  assert_string_equal(r.out, "");
  result_free(&r);
  r = rigor("rounds a.jsonl a.jsonl --metric ops");
  assert_int_equal(r.rc, 0);
  result_free(&r);
}

/* Several files: one missing, malformed or an experiment file is refused whole (exit 2, naming
 * it), never taken for an invalid round. */
static void test_rounds_refuses_unreadable_files(void **state) {
  (void)state;
  write_text("garbage.jsonl", "not a results file\n");
  static const struct {
    const char *file, *message;
  } unreadable[] = {
      {"missing.jsonl", "rigor rounds: missing.jsonl: cannot open results file"},
      {"garbage.jsonl", "rigor rounds: garbage.jsonl:1:"},
      {"a.yaml", "rigor rounds: a.yaml: this is an experiment file"},
  };
  for (size_t i = 0; i < sizeof unreadable / sizeof *unreadable; i++) {
    result_t r = rigor("rounds a.jsonl %s a.jsonl", unreadable[i].file);
    if (r.rc != 2) fail_msg("rounds with %s: exit %d, not 2", unreadable[i].file, r.rc);
    ASSERT_HAS(r.err, unreadable[i].message);
    assert_string_equal(r.out, "");
    result_free(&r);
  }
}

static void test_report_of_an_experiment_file(void **state) {
  (void)state;
  result_t r = rigor("report a.yaml");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "a.yaml: this is an experiment file; run it first (rigor run a.yaml)");
  result_free(&r);
}

/* The bash completion reads each command's options from its --help, without the bash-completion
 * package too. */
static void test_completion_offers_the_options_help_lists(void **state) {
  (void)state;
  char bin[1024], script[4096];
  snprintf(bin, sizeof bin, "%s", RIGOR_EXE);
  *strrchr(bin, '/') = '\0';
  snprintf(script, sizeof script,
           "PATH='%s':$PATH; source '%s/completions/rigor.bash'; "
           "t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); "
           "_rigor; echo \"${COMPREPLY[*]}\"; }; "
           "t rigor vali; t rigor plan --o; t rigor store add --ta; t rigor plugins nu",
           bin, RIGOR_SOURCE_DIR);
  write_text("complete.sh", script);
  char cmd[2200];
  snprintf(cmd, sizeof cmd, "bash --norc --noprofile '%s/complete.sh' >'%s/complete.txt' 2>&1", dir,
           dir);
  assert_int_equal(system(cmd), 0);
  char *got = read_text("complete.txt");
  assert_string_equal(got, "validate\n--output --only\n--tag\nnull\n");
  free(got);
}

/* Every option that takes one of a known set of words suggests the closest when it is misspelt. */
static void test_did_you_mean_for_every_enumerated_option(void **state) {
  (void)state;
  result_t r = rigor("run a.yaml --force -q");
  assert_int_equal(r.rc, 0);
  result_free(&r);
  r = rigor("compare a.jsonl a.jsonl --fail-on undetermined,invalidd");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "rigor compare: --fail-on takes a comma-separated list of undetermined, "
                    "inconclusive, invalid, incomparable or missing, not 'invalidd' (did you mean "
                    "'invalid'?)\n");
  result_free(&r);
  r = rigor("compare a.jsonl --axis spin_n");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "has no matrix axis 'spin_n' (axes: spin_ns) (did you mean 'spin_ns'?)");
  result_free(&r);
  r = rigor("report a.jsonl --columns medain");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "has no column 'medain' (columns: ");
  ASSERT_HAS(r.err, ") (did you mean 'median'?)");
  result_free(&r);
  r = rigor("compare a.jsonl --axis spin_ns --table contrast");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "no table 'contrast' in this report (tables: contrasts) (did you mean "
                    "'contrasts'?)");
  result_free(&r);
  r = rigor("validate a.yaml --only alpah");
  assert_int_equal(r.rc, 2);
  ASSERT_HAS(r.err, "no experiment named 'alpah' (the file has: alpha) (did you mean 'alpha'?)");
  result_free(&r);
}

/* A store path that is a FIFO or a folder is named as such, in one wording for every command. */
static void test_store_path_named_for_what_it_is(void **state) {
  (void)state;
  char fifo[1200], folder[1200];
  snprintf(fifo, sizeof fifo, "%s/s.fifo", dir);
  snprintf(folder, sizeof folder, "%s/s.folder", dir);
  unlink(fifo);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  mkdir(folder, 0700);
  result_t r = rigor("run b.yaml --force -q");
  assert_int_equal(r.rc, 0);
  result_free(&r);
  const char *const kinds[][2] = {{"s.fifo", "a FIFO"}, {"s.folder", "a folder"}};
  for (size_t i = 0; i < 2; i++) {
    char want[256];
    snprintf(want, sizeof want,
             ": %s: is %s, not a store (a SQLite file, which rigor store add "
             "creates)\n",
             kinds[i][0], kinds[i][1]);
    r = rigor("store add b.jsonl --db %s --commit c1 --quiet", kinds[i][0]);
    assert_int_equal(r.rc, 2);
    ASSERT_HAS(r.err, "rigor store add");
    ASSERT_HAS(r.err, want);
    result_free(&r);
    r = rigor("history --db %s", kinds[i][0]);
    assert_int_equal(r.rc, 2);
    ASSERT_HAS(r.err, "rigor history");
    ASSERT_HAS(r.err, want);
    result_free(&r);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_usage_errors_read_one_way),
      cmocka_unit_test(test_missing_value_and_flag_with_value),
      cmocka_unit_test(test_heartbeat_when_stderr_is_no_terminal),
      cmocka_unit_test(test_heartbeat_lines_during_a_run),
      cmocka_unit_test(test_plan_expects_a_wall_time),
      cmocka_unit_test(test_did_you_mean),
      cmocka_unit_test(test_equals_and_space_forms_agree),
      cmocka_unit_test(test_output_on_every_writer),
      cmocka_unit_test(test_unwritable_output_exits_one_everywhere),
      cmocka_unit_test(test_validate_and_plan_take_several_files),
      cmocka_unit_test(test_help_lists_every_option),
      cmocka_unit_test(test_rounds_refuses_an_unknown_metric),
      cmocka_unit_test(test_rounds_refuses_unreadable_files),
      cmocka_unit_test(test_report_of_an_experiment_file),
      cmocka_unit_test(test_did_you_mean_for_every_enumerated_option),
      cmocka_unit_test(test_store_path_named_for_what_it_is),
      cmocka_unit_test(test_completion_offers_the_options_help_lists),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
