/* Every example in README.md, the docs folder's pages and the plugin and example READMEs does what
 * its text says. YAML blocks are validated; `rigor ...` lines in sh/bash/console blocks are run (a
 * `rigor run` as `rigor run --dry-run`, which resolves and plans without measuring), and every
 * flag a line uses must be one its subcommand's --help lists.
 *
 * A block may be marked by an HTML comment on the line before its fence:
 *   <!-- example: fragment [plugin=NAME] -->  YAML that is part of an experiment: validated under
 *                                             a header naming the plugin (default null)
 *   <!-- example: file NAME -->               YAML saved as NAME for the commands after it; an
 *                                             experiment (it has `schema:`) is also validated
 *   <!-- example: base NAME -->               YAML saved as NAME, a base others extend
 *   <!-- example: fails TEXT -->              must exit non-zero, saying TEXT
 *   <!-- example: skip REASON -->             not run, for the reason given
 * An unmarked YAML block is a whole experiment file and must validate. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_files.h"

typedef enum { MARK_NONE, MARK_FRAGMENT, MARK_FILE, MARK_BASE, MARK_FAILS, MARK_SKIP } mark_kind_t;

typedef struct mark {
  mark_kind_t kind;
  char arg[256]; /* plugin, file name, expected text or reason */
} mark_t;

typedef struct checker {
  const char *doc;    /* path relative to the source tree */
  char scratch[4096]; /* where this document's examples run */
  int n_checked, n_failed, n_skipped;
} checker_t;

static void failure(checker_t *c, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s:%d: ", c->doc, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  c->n_failed++;
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* Runs `sh -c command` in dir with build/bin first on PATH; output (stdout and stderr) into *out.
 * A hung example is killed after two minutes rather than holding the suite. */
static int run_shell(const char *dir, const char *command, char **out) {
  char log[4200];
  snprintf(log, sizeof log, "%s/.last-output", dir);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    if (chdir(dir) != 0) _exit(127);
    char path[8192];
    snprintf(path, sizeof path, "%s/bin:%s", RIGOR_BINARY_DIR,
             getenv("PATH") ? getenv("PATH") : "");
    setenv("PATH", path, 1);
    unsetenv("RIGOR_PLUGIN_PATH");
    unsetenv("RIGOR_CONFIG_PATH");
    setenv("COLUMNS", "160", 1);
    FILE *f = freopen(log, "w", stdout);
    if (!f || dup2(fileno(stdout), 2) < 0) _exit(127);
    execl("/usr/bin/timeout", "timeout", "120", "/bin/sh", "-c", command, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  *out = test_slurp(log, NULL);
  if (!*out) *out = strdup("");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void trim_right(char *s) {
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    s[--n] = '\0';
}

/* The marker comment on `line`, if it is one. */
static mark_t parse_mark(const char *line) {
  mark_t m = {MARK_NONE, ""};
  const char *p = strstr(line, "<!-- example:");
  if (!p) return m;
  p += strlen("<!-- example:");
  while (*p == ' ')
    p++;
  static const struct {
    const char *word;
    mark_kind_t kind;
  } kinds[] = {{"fragment", MARK_FRAGMENT},
               {"file", MARK_FILE},
               {"base", MARK_BASE},
               {"fails", MARK_FAILS},
               {"skip", MARK_SKIP}};
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
    size_t n = strlen(kinds[i].word);
    if (strncmp(p, kinds[i].word, n) == 0 && (p[n] == ' ' || p[n] == '-')) {
      m.kind = kinds[i].kind;
      p += n;
      while (*p == ' ')
        p++;
      const char *end = strstr(p, "-->");
      size_t len = end ? (size_t)(end - p) : strlen(p);
      if (len >= sizeof m.arg) len = sizeof m.arg - 1;
      memcpy(m.arg, p, len);
      m.arg[len] = '\0';
      trim_right(m.arg);
      return m;
    }
  }
  return m;
}

static bool has_top_level_key(const char *yaml, const char *key) {
  size_t n = strlen(key);
  for (const char *l = yaml; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
    if (strncmp(l, key, n) == 0 && l[n] == ':') return true;
  return false;
}

static void check_yaml(checker_t *c, int line, const char *body, const mark_t *m, int index) {
  char path[4400], command[4600];
  const char *name = m->arg;
  char own[64];
  if (m->kind != MARK_FILE && m->kind != MARK_BASE) {
    snprintf(own, sizeof own, "example-%d.yaml", index);
    name = own;
  }
  snprintf(path, sizeof path, "%s/%s", c->scratch, name);
  if (m->kind == MARK_FRAGMENT) {
    /* What a whole experiment file needs and the fragment leaves out. */
    const char *plugin = strncmp(m->arg, "plugin=", 7) == 0 ? m->arg + 7 : "null";
    char *text = malloc(strlen(body) + 512);
    assert_non_null(text);
    int k = 0;
    if (!has_top_level_key(body, "schema")) k += sprintf(text + k, "schema: 1\n");
    if (!has_top_level_key(body, "name")) k += sprintf(text + k, "name: doc-example\n");
    if (!has_top_level_key(body, "plugin")) k += sprintf(text + k, "plugin: \"%s\"\n", plugin);
    if (!has_top_level_key(body, "output")) k += sprintf(text + k, "output: doc-example.jsonl\n");
    sprintf(text + k, "%s", body);
    write_file(path, text);
    free(text);
  } else {
    write_file(path, body);
  }
  if (m->kind == MARK_BASE || (m->kind == MARK_FILE && !has_top_level_key(body, "schema"))) return;
  snprintf(command, sizeof command, "rigor validate '%s'", name);
  char *out = NULL;
  int rc = run_shell(c->scratch, command, &out);
  c->n_checked++;
  if (m->kind == MARK_FAILS) {
    if (rc == 0)
      failure(c, line, "this YAML is marked to fail, but `rigor validate` accepts it");
    else if (m->arg[0] && !strstr(out, m->arg))
      failure(c, line, "`rigor validate` fails without saying '%s':\n%s", m->arg, out);
  } else if (rc != 0) {
    failure(c, line, "`rigor validate` of this YAML exits %d:\n%s", rc, out);
  }
  free(out);
}

/* The subcommand's --help, for the flags a line may use. */
static char *help_of(checker_t *c, char **words, int n) {
  char command[512];
  /* A global flag (rigor --version) is listed by `rigor --help`. */
  int k =
      snprintf(command, sizeof command, "rigor %s", n > 1 && words[1][0] != '-' ? words[1] : "");
  bool nested = n > 2 && words[1][0] != '-' && words[2][0] != '-' &&
                (strcmp(words[1], "store") == 0 || strcmp(words[1], "history") == 0) &&
                !strchr(words[2], '/') && !strchr(words[2], '.');
  if (nested) k += snprintf(command + k, sizeof command - (size_t)k, " %s", words[2]);
  snprintf(command + k, sizeof command - (size_t)k, " --help");
  char *out = NULL;
  run_shell(c->scratch, command, &out);
  return out;
}

/* Splits a command line into words at blanks, up to the first shell operator. */
static int split_words(char *s, char **words, int cap) {
  int n = 0;
  for (char *p = s; *p && n < cap;) {
    while (*p == ' ' || *p == '\t')
      p++;
    if (!*p || *p == '|' || *p == ';' || *p == '&' || *p == '>' || *p == '<') break;
    words[n++] = p;
    while (*p && *p != ' ' && *p != '\t')
      p++;
    if (*p) *p++ = '\0';
  }
  return n;
}

static void check_flags(checker_t *c, int line, const char *command) {
  char copy[4096];
  snprintf(copy, sizeof copy, "%s", command);
  char *words[128];
  int n = split_words(copy, words, 128);
  if (n < 2) return;
  char *help = NULL;
  for (int i = 1; i < n; i++) {
    if (words[i][0] != '-' || words[i][1] == '\0' || (words[i][1] >= '0' && words[i][1] <= '9'))
      continue;
    char flag[128];
    snprintf(flag, sizeof flag, "%s", words[i]);
    char *eq = strchr(flag, '=');
    if (eq) *eq = '\0';
    if (!help) help = help_of(c, words, n);
    /* The flag as a whole word of the help text. */
    bool listed = false;
    for (const char *h = strstr(help, flag); h && !listed; h = strstr(h + 1, flag)) {
      char after = h[strlen(flag)];
      char before = h == help ? ' ' : h[-1];
      listed = (after == '\0' || after == ' ' || after == ']' || after == '=' || after == ',' ||
                after == '\n' || after == '|') &&
               (before == ' ' || before == '[' || before == '|' || before == '\n' || before == ',');
    }
    if (!listed)
      failure(c, line, "`%s` uses %s, which `rigor %s --help` does not list", command, flag,
              words[1]);
  }
  free(help);
}

static bool runs_here(const char *sub) {
  static const char *const runnable[] = {"run",   "validate",  "plan",   "config", "plugins",
                                         "check", "--version", "--help", "help",   "new-plugin"};
  for (size_t i = 0; i < sizeof runnable / sizeof *runnable; i++)
    if (strcmp(sub, runnable[i]) == 0) return true;
  return false;
}

static void check_command(checker_t *c, int line, char *command, const mark_t *m) {
  /* `build/bin/rigor` as the docs run it from a checkout: the same binary. */
  if (strncmp(command, "build/bin/rigor ", 16) == 0)
    memmove(command, command + 10, strlen(command + 10) + 1);
  check_flags(c, line, command);
  char copy[4096];
  snprintf(copy, sizeof copy, "%s", command);
  char *words[128];
  int n = split_words(copy, words, 128);
  if (n < 2 || !runs_here(words[1])) return;
  char run[4200];
  if (strcmp(words[1], "run") == 0)
    snprintf(run, sizeof run, "rigor run --dry-run%s", command + strlen("rigor run"));
  else
    snprintf(run, sizeof run, "%s", command);
  char *out = NULL;
  int rc = run_shell(c->scratch, run, &out);
  c->n_checked++;
  if (m->kind == MARK_FAILS) {
    if (rc == 0)
      failure(c, line, "`%s` is marked to fail, but exits 0", run);
    else if (m->arg[0] && !strstr(out, m->arg))
      failure(c, line, "`%s` fails without saying '%s':\n%s", run, m->arg, out);
  } else if (rc != 0) {
    failure(c, line, "`%s` exits %d:\n%s", run, rc, out);
  }
  free(out);
}

/* The rigor command lines of a shell block: `rigor ...` or `build/bin/rigor ...`, a `$ ` prompt
 * and a trailing `# comment` stripped, `\` continuations joined. */
static void check_shell_block(checker_t *c, int first_line, const char *body, const mark_t *m) {
  char *text = strdup(body);
  assert_non_null(text);
  char joined[4096] = "";
  int start = 0, line_no = first_line;
  for (char *l = text, *next; l; l = next, line_no++) {
    next = strchr(l, '\n');
    if (next) *next++ = '\0';
    trim_right(l);
    if (!joined[0]) {
      const char *p = l;
      while (*p == ' ')
        p++;
      if (strncmp(p, "$ ", 2) == 0) p += 2;
      if (strncmp(p, "rigor ", 6) != 0 && strncmp(p, "build/bin/rigor ", 16) != 0) continue;
      start = line_no;
      l = (char *)p;
    }
    size_t n = strlen(l);
    bool more = n > 0 && l[n - 1] == '\\';
    if (more) l[n - 1] = ' ';
    strncat(joined, l, sizeof joined - strlen(joined) - 1);
    if (more) continue;
    /* A comment starts at " #" outside quotes. */
    bool in_single = false, in_double = false;
    for (char *p = joined; *p; p++) {
      if (*p == '\'' && !in_double) in_single = !in_single;
      if (*p == '"' && !in_single) in_double = !in_double;
      if (*p == '#' && !in_single && !in_double && p > joined && p[-1] == ' ') {
        *p = '\0';
        break;
      }
    }
    trim_right(joined);
    if (m->kind == MARK_SKIP)
      c->n_skipped++;
    else
      check_command(c, start, joined, m);
    joined[0] = '\0';
  }
  free(text);
}

static bool is_shell(const char *lang) {
  return strcmp(lang, "sh") == 0 || strcmp(lang, "bash") == 0 || strcmp(lang, "console") == 0 ||
         strcmp(lang, "shell") == 0;
}

static void link_into(const char *dir, const char *name, const char *target) {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  assert_int_equal(symlink(target, path), 0);
}

/* The scratch folder a document's examples run in: the checkout's folders linked in, build/
 * the build tree, results/ empty. */
static void make_scratch(checker_t *c) {
  snprintf(c->scratch, sizeof c->scratch, "%s/tests/doc-examples-XXXXXX", RIGOR_BINARY_DIR);
  assert_non_null(mkdtemp(c->scratch));
  static const char *const linked[] = {"configs",   "examples", "bench",   "plugins",
                                       "templates", "docs",     "scripts", "README.md"};
  for (size_t i = 0; i < sizeof linked / sizeof *linked; i++) {
    char target[4400];
    snprintf(target, sizeof target, "%s/%s", RIGOR_SOURCE_DIR, linked[i]);
    if (access(target, F_OK) == 0) link_into(c->scratch, linked[i], target);
  }
  link_into(c->scratch, "build", RIGOR_BINARY_DIR);
  char results[4400];
  snprintf(results, sizeof results, "%s/results", c->scratch);
  assert_int_equal(mkdir(results, 0755), 0);
}

static void remove_scratch(const checker_t *c) {
  char command[4400];
  snprintf(command, sizeof command, "rm -rf '%s'", c->scratch);
  if (system(command) != 0) fprintf(stderr, "could not remove %s\n", c->scratch);
}

/* Checks one document's examples, in the order they appear. Returns the failures. */
static int check_document(const char *path, const char *doc) {
  char *text = test_slurp(path, NULL);
  if (!text) return 0;
  checker_t c = {.doc = doc};
  make_scratch(&c);
  mark_t mark = {MARK_NONE, ""}, pending = {MARK_NONE, ""};
  char lang[32] = "";
  bool in_block = false;
  int block_line = 0, index = 0, line_no = 0;
  size_t cap = 1 << 16, len = 0;
  char *body = malloc(cap);
  assert_non_null(body);
  for (char *l = text, *next; l; l = next) {
    next = strchr(l, '\n');
    if (next) *next++ = '\0';
    line_no++;
    const char *p = l;
    while (*p == ' ')
      p++;
    if (strncmp(p, "```", 3) == 0) {
      if (!in_block) {
        in_block = true;
        snprintf(lang, sizeof lang, "%s", p + 3);
        trim_right(lang);
        block_line = line_no + 1;
        len = 0;
        body[0] = '\0';
        mark = pending;
      } else {
        in_block = false;
        if (mark.kind == MARK_SKIP && !mark.arg[0])
          failure(&c, block_line, "a skipped example must say why");
        else if (mark.kind == MARK_SKIP)
          c.n_skipped++;
        else if (strcmp(lang, "yaml") == 0)
          check_yaml(&c, block_line, body, &mark, ++index);
        else if (is_shell(lang))
          check_shell_block(&c, block_line, body, &mark);
      }
      pending = (mark_t){MARK_NONE, ""};
      continue;
    }
    if (in_block) {
      /* Indented fences (in a list) indent their lines alike: strip the fence's indent. */
      size_t n = strlen(l);
      if (len + n + 2 > cap) {
        cap = (len + n + 2) * 2;
        body = realloc(body, cap);
        assert_non_null(body);
      }
      memcpy(body + len, l, n);
      len += n;
      body[len++] = '\n';
      body[len] = '\0';
    } else {
      mark_t m = parse_mark(l);
      if (m.kind != MARK_NONE)
        pending = m;
      else if (*p)
        pending = (mark_t){MARK_NONE, ""};
    }
  }
  free(body);
  free(text);
  printf("%s: %d examples checked, %d skipped, %d failed\n", doc, c.n_checked, c.n_skipped,
         c.n_failed);
  if (c.n_failed == 0) remove_scratch(&c);
  return c.n_failed;
}

static int check_source(const char *doc) {
  char path[16384];
  snprintf(path, sizeof path, "%s/%s", RIGOR_SOURCE_DIR, doc);
  return check_document(path, doc);
}

static int check_folder(const char *folder, const char *file_name) {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s", RIGOR_SOURCE_DIR, folder);
  struct dirent **names = NULL;
  int n = scandir(path, &names, NULL, alphasort), failed = 0;
  for (int i = 0; i < n; i++) {
    const char *name = names[i]->d_name;
    char doc[8800];
    if (name[0] != '.') {
      if (file_name) {
        snprintf(doc, sizeof doc, "%s/%s/%s", folder, name, file_name);
        failed += check_source(doc);
      } else if (strlen(name) > 3 && strcmp(name + strlen(name) - 3, ".md") == 0) {
        snprintf(doc, sizeof doc, "%s/%s", folder, name);
        failed += check_source(doc);
      }
    }
    free(names[i]);
  }
  free(names);
  return failed;
}

static void test_readme(void **state) {
  (void)state;
  assert_int_equal(check_source("README.md"), 0);
}

static void test_docs(void **state) {
  (void)state;
  assert_int_equal(check_folder("docs", NULL), 0);
}

static void test_plugin_readmes(void **state) {
  (void)state;
  assert_int_equal(check_folder("plugins", "README.md"), 0);
}

static void test_example_readmes(void **state) {
  (void)state;
  assert_int_equal(check_folder("examples", "README.md"), 0);
}

/* The checker itself: a broken example is caught, and one marked to fail must fail. */
static void test_checker_catches_broken_examples(void **state) {
  (void)state;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/tests/doc-check-XXXXXX", RIGOR_BINARY_DIR);
  assert_non_null(mkdtemp(dir));
  char doc[4400];
  snprintf(doc, sizeof doc, "%s/broken.md", dir);
  /* Four faults: a misspelt param, a marked failure that passes, a missing file, a flag the
   * subcommand does not have. The fragment and the marked failure that fails are fine. */
  write_file(doc, "# broken\n\n```yaml\nschema: 1\nname: x\nplugin: \"null\"\n"
                  "params: {spin_nss: 1}\noutput: x.jsonl\n```\n\n"
                  "<!-- example: fails has no param -->\n```yaml\nschema: 1\nname: y\n"
                  "plugin: \"null\"\nparams: {nope: 1}\noutput: y.jsonl\n```\n\n"
                  "<!-- example: fails -->\n```yaml\nschema: 1\nname: z\nplugin: \"null\"\n"
                  "output: z.jsonl\n```\n\n"
                  "<!-- example: fragment -->\n```yaml\ntiming: {cycles: 3}\n```\n\n"
                  "```sh\nrigor validate missing.yaml\nrigor report x.jsonl --no-such-flag\n```\n");
  assert_int_equal(check_document(doc, "broken.md"), 4);
  char command[4400];
  snprintf(command, sizeof command, "rm -rf '%s'", dir);
  assert_int_equal(system(command), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_checker_catches_broken_examples),
      cmocka_unit_test(test_readme),
      cmocka_unit_test(test_docs),
      cmocka_unit_test(test_plugin_readmes),
      cmocka_unit_test(test_example_readmes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
