/* Configs shared between teams: `extends:` takes a base by name from the config path
 * (--config-path, RIGOR_CONFIG_PATH) when it is not beside the file, held to the plugin folders'
 * owner and mode rule; `extends: {file, sha256}` refuses a base whose pin changed. Real folders,
 * real permissions, the real rigor binary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_files.h"

#include "experiment.h"
#include "support.h"
#include "trust.h"

#define EXAMPLE_DIR RIGOR_SOURCE_DIR "/examples/shared-configs"

static char *dir;

static int setup(void **state) {
  (void)state;
  dir = scratch_dir("shared");
  return 0;
}

static int teardown(void **state) {
  (void)state;
  free(dir);
  return 0;
}

static const char base_text[] = "# what both teams measure\n"
                                "schema: 1\n"
                                "plugin: cfgfix\n"
                                "params: {count: 3, note: shared}\n"
                                "timing: {cycles: 4}\n";

/* dir/<case>/<name>, written with the modes a careful team would use. */
static char *put(const char *name, const char *text) {
  char *path = write_file(dir, name, text);
  chmod(path, 0644);
  char *slash = strrchr(path, '/');
  *slash = '\0';
  chmod(path, 0755);
  *slash = '/';
  return path;
}

static char *path_of(const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  snprintf(p, n, "%s/%s", dir, name);
  return p;
}

static int load_with(const char *path, const char *const *config_dirs, rigor_config_t **cfg,
                     char *err, size_t errlen) {
  rigor_config_opts_t opts = {.config_dirs = config_dirs};
  return load(path, &opts, cfg, err, errlen);
}

static rigor_config_t *load_ok(const char *path, const char *const *config_dirs) {
  char err[8192] = "";
  rigor_config_t *cfg = NULL;
  if (load_with(path, config_dirs, &cfg, err, sizeof err) != 0) fail_msg("%s", err);
  return cfg;
}

/* The first line of the error, the scratch folder written as "D". */
static char *load_fails(const char *path, const char *const *config_dirs) {
  char err[8192] = "";
  rigor_config_t *cfg = NULL;
  assert_int_equal(load_with(path, config_dirs, &cfg, err, sizeof err), RIGOR_ECONFIG);
  assert_null(cfg);
  char *line = first_line(err), *out = malloc(strlen(line) + 1), *w = out;
  size_t n = strlen(dir);
  for (const char *r = line; *r;)
    if (strncmp(r, dir, n) == 0)
      *w++ = 'D', r += n;
    else
      *w++ = *r++;
  *w = '\0';
  free(line);
  return out;
}

static void expect_failure(const char *path, const char *const *config_dirs, const char *expect) {
  char *line = load_fails(path, config_dirs);
  if (strcmp(line, expect) != 0) fail_msg("\n  expected: %s\n  got:      %s", expect, line);
  free(line);
}

static long param(const rigor_config_t *cfg, const char *name) {
  return (long)json_integer_value(
      json_object_get(json_object_get(cfg->experiments[0].variants[0].settings, "params"), name));
}

static void test_base_by_name_from_the_config_path(void **state) {
  (void)state;
  char *base = put("byname/shared/team-base.yaml", base_text);
  char *team = put("byname/team-a/a.yaml", "extends: team-base.yaml\nname: team-a\n"
                                           "params: {count: 5}\n");
  expect_failure(team, NULL,
                 "D/byname/team-a/a.yaml:1:10: extends target 'team-base.yaml' not found (looked "
                 "for 'D/byname/team-a/team-base.yaml'; a shared base is found through "
                 "--config-path DIR or RIGOR_CONFIG_PATH)");
  char *shared = path_of("byname/shared"), *missing = path_of("byname/nowhere");
  const char *dirs[] = {missing, shared, NULL};
  rigor_config_t *cfg = load_ok(team, dirs);
  assert_int_equal(param(cfg, "count"), 5);
  assert_string_equal(
      json_string_value(json_object_get(
          json_object_get(cfg->experiments[0].variants[0].settings, "params"), "note")),
      "shared");
  /* The base is one of the sources (rigor run protects them from -o). */
  char *real = realpath(base, NULL);
  bool listed = false;
  for (size_t i = 0; i < json_array_size(cfg->sources); i++)
    listed = listed || strcmp(json_string_value(json_array_get(cfg->sources, i)), real) == 0;
  assert_true(listed);
  assert_int_equal(json_array_size(cfg->warnings), 0);
  rigor_config_free(cfg);
  /* Not found anywhere: the message lists the folders it searched. */
  const char *only_missing[] = {missing, NULL};
  expect_failure(
      team, only_missing,
      "D/byname/team-a/a.yaml:1:10: extends target 'team-base.yaml' not found (looked "
      "for 'D/byname/team-a/team-base.yaml', then in the config path: D/byname/nowhere)");
  free(real), free(base), free(team), free(shared), free(missing);
}

/* --config-path folders first, then RIGOR_CONFIG_PATH's in order; the first that holds the name
 * wins. A name in a sub-folder of a config-path folder is found too. */
static void test_search_order(void **state) {
  (void)state;
  free(put("order/one/team-base.yaml", "params: {count: 1}\n"));
  free(put("order/two/team-base.yaml", "params: {count: 2}\n"));
  free(put("order/three/team-base.yaml", "params: {count: 3}\n"));
  free(put("order/three/stream/sub-base.yaml", "params: {count: 33}\n"));
  char *team =
      put("order/team/t.yaml", "schema: 1\nname: t\nplugin: cfgfix\nextends: team-base.yaml\n");
  char *sub = put("order/team/s.yaml",
                  "schema: 1\nname: s\nplugin: cfgfix\nextends: stream/sub-base.yaml\n");
  char *one = path_of("order/one"), *two = path_of("order/two"), *three = path_of("order/three");
  char env[8192];
  snprintf(env, sizeof env, "%s/none::%s:%s", dir, three, two);
  assert_int_equal(setenv("RIGOR_CONFIG_PATH", env, 1), 0);
  rigor_config_t *cfg = load_ok(team, NULL);
  assert_int_equal(param(cfg, "count"), 3);
  rigor_config_free(cfg);
  const char *dirs[] = {one, NULL};
  cfg = load_ok(team, dirs);
  assert_int_equal(param(cfg, "count"), 1);
  rigor_config_free(cfg);
  cfg = load_ok(sub, dirs);
  assert_int_equal(param(cfg, "count"), 33);
  rigor_config_free(cfg);
  unsetenv("RIGOR_CONFIG_PATH");
  free(team), free(sub), free(one), free(two), free(three);
}

/* A base beside the file wins over the config path's, with a warning naming the shadowed one;
 * names with ".." or absolute paths are never looked up on the config path. */
static void test_beside_wins_and_names_that_are_not_searched(void **state) {
  (void)state;
  free(put("local/shared/team-base.yaml", "params: {count: 9}\n"));
  free(put("local/shared/up.yaml", "params: {count: 8}\n"));
  free(put("local/team/team-base.yaml", "params: {count: 4}\n"));
  char *team =
      put("local/team/t.yaml", "schema: 1\nname: t\nplugin: cfgfix\nextends: team-base.yaml\n");
  char *shared = path_of("local/shared");
  const char *dirs[] = {shared, NULL};
  rigor_config_t *cfg = load_ok(team, dirs);
  assert_int_equal(param(cfg, "count"), 4);
  assert_int_equal(json_array_size(cfg->warnings), 1);
  char want[8192];
  snprintf(want, sizeof want,
           "extends takes 'team-base.yaml' from beside %s, not the config path's %s/team-base.yaml",
           team, shared);
  assert_non_null(strstr(json_string_value(json_array_get(cfg->warnings, 0)), want));
  rigor_config_free(cfg);

  /* A file beside it that is the config path's own (its folder on the path): nothing shadowed,
   * no warning. */
  char *on_path =
      put("local/shared/own.yaml", "schema: 1\nname: o\nplugin: cfgfix\nextends: up.yaml\n");
  cfg = load_ok(on_path, dirs);
  assert_int_equal(param(cfg, "count"), 8);
  assert_int_equal(json_array_size(cfg->warnings), 0);
  rigor_config_free(cfg);
  free(on_path);

  char *dotted =
      put("local/team/d.yaml", "schema: 1\nname: d\nplugin: cfgfix\nextends: x/../up.yaml\n");
  expect_failure(dotted, dirs,
                 "D/local/team/d.yaml:4:10: extends target 'x/../up.yaml' not found (looked for "
                 "'D/local/team/x/../up.yaml')");
  char text[8192];
  snprintf(text, sizeof text, "schema: 1\nname: a\nplugin: cfgfix\nextends: %s/up.yaml\n", shared);
  char *absolute = put("local/team/abs.yaml", text);
  char *line = load_fails(absolute, dirs);
  assert_non_null(strstr(line, "is outside the folder of"));
  assert_non_null(strstr(line, "(pass --allow-external-extends to allow it)"));
  free(line);
  free(team), free(shared), free(dotted), free(absolute);
}

static void test_trust_check(void **state) {
  (void)state;
  char *file = put("trust/safe/base.yaml", "params: {}\n");
  char *folder = path_of("trust/safe");
  rigor_distrust_t bad;
  assert_int_equal(rigor_trust_check(file, &bad), 0);
  chmod(file, 0664);
  assert_int_equal(rigor_trust_check(file, &bad), RIGOR_EINVAL);
  char *real = realpath(file, NULL);
  assert_string_equal(bad.path, real);
  assert_string_equal(bad.why, "is group-writable");
  chmod(file, 0644);
  chmod(folder, 0777);
  assert_int_equal(rigor_trust_check(file, &bad), RIGOR_EINVAL);
  char *real_folder = realpath(folder, NULL);
  assert_string_equal(bad.path, real_folder);
  assert_string_equal(bad.why, "is world-writable");
  chmod(folder, 01777); /* sticky, as /tmp */
  assert_int_equal(rigor_trust_check(file, &bad), 0);
  chmod(folder, 0775); /* a group-writable folder is allowed, as for plugins */
  assert_int_equal(rigor_trust_check(file, &bad), 0);
  chmod(folder, 0755);
  if (geteuid() == 0) {
    assert_int_equal(chown(file, 65534, 65534), 0);
    assert_int_equal(rigor_trust_check(file, &bad), RIGOR_EINVAL);
    assert_string_equal(bad.why, "is owned by another user");
    assert_int_equal(chown(file, 0, 0), 0);
  }
  assert_int_equal(rigor_trust_check("/no/such/file", &bad), 0); /* the open reports it */
  free(file), free(folder), free(real), free(real_folder);
}

/* A base on the config path that someone else could replace is refused at the extends line; so
 * is a file that such a base extends, and a link in a safe folder to a base in an open one. */
static void test_untrusted_bases_are_refused(void **state) {
  (void)state;
  char *base = put("refuse/shared/team-base.yaml", "extends: common.yaml\n");
  char *common = put("refuse/shared/common.yaml", base_text);
  char *team = put("refuse/team/t.yaml", "extends: team-base.yaml\nname: t\n");
  char *shared = path_of("refuse/shared"), *top = path_of("refuse");
  const char *dirs[] = {shared, NULL};
  rigor_config_t *cfg = load_ok(team, dirs);
  rigor_config_free(cfg);

  chmod(shared, 0777);
  expect_failure(team, dirs,
                 "D/refuse/team/t.yaml:1:10: extends target 'team-base.yaml' "
                 "(D/refuse/shared/team-base.yaml) is refused: its path D/refuse/shared is "
                 "world-writable, so someone else could change what it sets (fix its "
                 "permissions)");
  chmod(shared, 0755);
  chmod(base, 0664);
  expect_failure(team, dirs,
                 "D/refuse/team/t.yaml:1:10: extends target 'team-base.yaml' "
                 "(D/refuse/shared/team-base.yaml) is refused: D/refuse/shared/team-base.yaml is "
                 "group-writable, so someone else could change what it sets (fix its "
                 "permissions)");
  chmod(base, 0644);
  /* What a shared base extends beside itself is held to the same rule. */
  chmod(common, 0666);
  expect_failure(team, dirs,
                 "D/refuse/shared/team-base.yaml:1:10: extends target 'common.yaml' "
                 "(D/refuse/shared/common.yaml) is refused: D/refuse/shared/common.yaml is "
                 "world-writable, so someone else could change what it sets (fix its "
                 "permissions)");
  chmod(common, 0644);
  /* The rule is the config path's: a team's own base beside its file is its own business. */
  char *own_base = put("refuse/team/own-base.yaml", base_text);
  chmod(own_base, 0666);
  char *own = put("refuse/team/own.yaml", "extends: own-base.yaml\nname: own\n");
  cfg = load_ok(own, dirs);
  rigor_config_free(cfg);
  /* A folder above the config-path folder. */
  chmod(top, 0777);
  expect_failure(team, dirs,
                 "D/refuse/team/t.yaml:1:10: extends target 'team-base.yaml' "
                 "(D/refuse/shared/team-base.yaml) is refused: its path D/refuse is "
                 "world-writable, so someone else could change what it sets (fix its "
                 "permissions)");
  chmod(top, 0755);
  /* A link in the safe folder to a base in an open one. */
  char *open_base = put("refuse/open/real-base.yaml", base_text),
       *open_dir = path_of("refuse/open");
  chmod(open_dir, 0777);
  char *link = path_of("refuse/shared/linked.yaml");
  assert_int_equal(symlink(open_base, link), 0);
  char *linked = put("refuse/team/l.yaml", "extends: linked.yaml\nname: l\n");
  expect_failure(linked, dirs,
                 "D/refuse/team/l.yaml:1:10: extends target 'linked.yaml' "
                 "(D/refuse/shared/linked.yaml) is refused: its path D/refuse/open is "
                 "world-writable, so someone else could change what it sets (fix its "
                 "permissions)");
  chmod(open_dir, 0755);
  cfg = load_ok(linked, dirs);
  rigor_config_free(cfg);
  free(base), free(common), free(team), free(shared), free(top), free(own_base), free(own);
  free(open_base), free(open_dir), free(link), free(linked);
}

static char *base_hash(const char *path, const char *const *config_dirs) {
  rigor_config_opts_t opts = {.config_dirs = config_dirs};
  char hex[65], err[4096];
  if (rigor_config_base_hash(path, &opts, hex, err, sizeof err) != 0) fail_msg("%s", err);
  return strdup(hex);
}

static char *pinned_team(const char *name, const char *hash) {
  char text[1024];
  snprintf(text, sizeof text, "name: pinned\nextends: {file: team-base.yaml, sha256: %s}\n", hash);
  return put(name, text);
}

/* The pin holds through comments, layout, quoting and key order, and breaks on any value,
 * with the hash the base has now. */
static void test_pin(void **state) {
  (void)state;
  char *base = put("pin/shared/team-base.yaml", base_text);
  char *shared = path_of("pin/shared");
  const char *dirs[] = {shared, NULL};
  char *hash = base_hash(base, NULL);
  assert_int_equal(strlen(hash), 64);
  char *team = pinned_team("pin/team/t.yaml", hash);
  rigor_config_t *cfg = load_ok(team, dirs);
  assert_int_equal(param(cfg, "count"), 3);
  rigor_config_free(cfg);
  /* Upper-case hex is the same pin. */
  char upper[65];
  for (size_t i = 0; i < 65; i++)
    upper[i] = (char)(hash[i] >= 'a' && hash[i] <= 'f' ? hash[i] - 32 : hash[i]);
  char *team_upper = pinned_team("pin/team/u.yaml", upper);
  cfg = load_ok(team_upper, dirs);
  rigor_config_free(cfg);
  /* The same document spelled otherwise. */
  free(put("pin/shared/team-base.yaml", "timing:\n  cycles: 4   # four\nparams:\n"
                                        "  note: \"shared\"\n  count: 3\nplugin: 'cfgfix'\n"
                                        "schema: 1\n"));
  char *again = base_hash(base, NULL);
  assert_string_equal(again, hash);
  cfg = load_ok(team, dirs);
  rigor_config_free(cfg);
  /* A changed value. */
  free(put("pin/shared/team-base.yaml", "schema: 1\nplugin: cfgfix\n"
                                        "params: {count: 4, note: shared}\ntiming: {cycles: 4}\n"));
  char *now = base_hash(base, NULL);
  assert_string_not_equal(now, hash);
  char want[1024];
  snprintf(want, sizeof want,
           "D/pin/team/t.yaml:2:41: extends target 'team-base.yaml' "
           "(D/pin/shared/team-base.yaml) has sha256 %s, not the pinned one: the base changed; "
           "review the change, then pin the new hash",
           now);
  expect_failure(team, dirs, want);
  free(base), free(shared), free(hash), free(team), free(team_upper), free(again), free(now);
}

/* The pin covers what the base extends: its own extends, and those of its defaults and of each
 * of its experiments; a cycle through them is an error, not a loop. */
static void test_pin_covers_what_the_base_extends(void **state) {
  (void)state;
  free(put("reach/shared/team-base.yaml", "extends: timing.yaml\n"
                                          "schema: 1\nname: suite\n"
                                          "defaults: {extends: defaults.yaml}\n"
                                          "experiments:\n"
                                          "  - {name: one, extends: one.yaml}\n"
                                          "  - {name: two}\n"));
  free(put("reach/shared/timing.yaml", "output: results/suite.jsonl\n"));
  free(put("reach/shared/defaults.yaml", "plugin: cfgfix\ntiming: {cycles: 3}\n"));
  free(put("reach/shared/one.yaml", "params: {count: 1}\n"));
  char *shared = path_of("reach/shared"), *base = path_of("reach/shared/team-base.yaml");
  const char *dirs[] = {shared, NULL};
  char *hash = base_hash(base, NULL);
  char *team = pinned_team("reach/team/t.yaml", hash);
  rigor_config_t *cfg = load_ok(team, dirs);
  assert_int_equal(cfg->n_experiments, 2);
  assert_int_equal(param(cfg, "count"), 1);
  rigor_config_free(cfg);
  const char *changes[][2] = {
      {"reach/shared/timing.yaml", "output: results/other.jsonl\n"},
      {"reach/shared/defaults.yaml", "plugin: cfgfix\ntiming: {cycles: 4}\n"},
      {"reach/shared/one.yaml", "params: {count: 2}\n"}};
  const char *originals[] = {"output: results/suite.jsonl\n",
                             "plugin: cfgfix\ntiming: {cycles: 3}\n", "params: {count: 1}\n"};
  for (size_t i = 0; i < 3; i++) {
    free(put(changes[i][0], changes[i][1]));
    char *line = load_fails(team, dirs);
    if (!strstr(line, "not the pinned one")) fail_msg("%s: %s", changes[i][0], line);
    free(line);
    free(put(changes[i][0], originals[i]));
    cfg = load_ok(team, dirs);
    rigor_config_free(cfg);
  }
  /* Pins inside pins: an experiment of the base pins a file that pins the base back. The cycle
   * is caught on the one chain (the pins' hashes never get compared). */
  const char *zeros = "0000000000000000000000000000000000000000000000000000000000000000";
  char text[1024];
  snprintf(text, sizeof text, "extends: {file: team-base.yaml, sha256: %s}\nparams: {count: 1}\n",
           zeros);
  free(put("reach/shared/one.yaml", text));
  snprintf(text, sizeof text,
           "extends: timing.yaml\nschema: 1\nname: suite\ndefaults: {extends: defaults.yaml}\n"
           "experiments:\n  - {name: one, extends: {file: one.yaml, sha256: %s}}\n"
           "  - {name: two}\n",
           zeros);
  free(put("reach/shared/team-base.yaml", text));
  char *line = load_fails(team, dirs);
  assert_non_null(strstr(line, "extends cycle: "));
  assert_non_null(strstr(line, "one.yaml -> "));
  free(line);
  rigor_config_opts_t opts = {.config_dirs = dirs};
  char hex[65], err[4096];
  assert_int_equal(rigor_config_base_hash(base, &opts, hex, err, sizeof err), RIGOR_ECONFIG);
  assert_non_null(strstr(err, "extends cycle: "));
  free(shared), free(base), free(hash), free(team);
}

/* A pinned base is read once more for its hash; what it warns about is said once. */
static void test_pinned_base_warns_once(void **state) {
  (void)state;
  char *base = put("once/shared/team-base.yaml", "schema: 1\nname: suite\n"
                                                 "defaults: {extends: d.yaml}\n"
                                                 "experiments: [{name: one}]\n");
  free(put("once/shared/d.yaml", "plugin: cfgfix\n"));
  free(put("once/other/d.yaml", "plugin: cfgfix\n"));
  char *shared = path_of("once/shared"), *other = path_of("once/other");
  const char *dirs[] = {shared, other, NULL};
  char *hash = base_hash(base, NULL), *team = pinned_team("once/team/t.yaml", hash);
  rigor_config_t *cfg = load_ok(team, dirs);
  assert_int_equal(json_array_size(cfg->warnings), 1);
  assert_non_null(strstr(json_string_value(json_array_get(cfg->warnings, 0)),
                         "extends takes 'd.yaml' from beside "));
  rigor_config_free(cfg);
  free(base), free(shared), free(other), free(hash), free(team);
}

/* --config-path on run, plan, validate and config; RIGOR_CONFIG_PATH; config --base-hash. */
static void test_cli(void **state) {
  (void)state;
  char *base = put("cli/shared/team-base.yaml",
                   "schema: 1\nplugin: \"null\"\ntiming: {warmup: 1, cycles: 2, iters: 10}\n");
  char *team = put("cli/team/t.yaml", "extends: team-base.yaml\nname: cli-team\n");
  char *shared = path_of("cli/shared"), args[16384], *out = NULL;
  const char *const commands[] = {"validate", "plan", "config", "run"};
  for (size_t i = 0; i < 4; i++) {
    snprintf(args, sizeof args, "%s '%s' -o '%s/cli/out-%zu.jsonl'", commands[i], team, dir, i);
    if (strcmp(commands[i], "validate") == 0 || strcmp(commands[i], "config") == 0)
      snprintf(args, sizeof args, "%s '%s'", commands[i], team);
    size_t used = strlen(args);
    assert_int_equal(run_rigor(args, &out), 2);
    assert_non_null(strstr(out, "extends target 'team-base.yaml' not found"));
    free(out);
    snprintf(args + used, sizeof args - used, " --config-path '%s'", shared);
    if (run_rigor(args, &out) != 0) fail_msg("%s: %s", args, out);
    free(out);
  }
  char cmd[16384];
  snprintf(cmd, sizeof cmd, "RIGOR_CONFIG_PATH='%s/cli/none:%s' '%s' validate '%s' 2>&1", dir,
           shared, RIGOR_EXE, team);
  FILE *pipe = popen(cmd, "r");
  char line[4096] = "";
  assert_non_null(fgets(line, sizeof line, pipe));
  assert_int_equal(pclose(pipe), 0);
  assert_non_null(strstr(line, "t.yaml: ok (1 experiment, 1 variant, 1 run)"));
  /* The pin as the CLI prints it is the one the loader checks. */
  snprintf(args, sizeof args, "config --base-hash '%s'", base);
  assert_int_equal(run_rigor(args, &out), 0);
  char *hash = base_hash(base, NULL);
  char want[80];
  snprintf(want, sizeof want, "%s\n", hash);
  assert_string_equal(out, want);
  free(out);
  snprintf(args, sizeof args, "config --base-hash '%s/cli/nothing.yaml'", dir);
  assert_int_equal(run_rigor(args, &out), 2);
  assert_non_null(strstr(out, "nothing.yaml: cannot read: No such file or directory"));
  free(out);
  free(base), free(team), free(shared), free(hash);
}

static char *slurp(const char *path) {
  char *text = test_slurp(path, NULL);
  assert_non_null(text);
  return text;
}

/* docs/user-guide.md's two-team example: its files are the ones in examples/shared-configs/,
 * its commands run as written (from a scratch folder, so results land there), and a changed base
 * stops the pinned team with the message the guide shows. */
static void test_user_guide_example(void **state) {
  (void)state;
  char *guide = slurp(RIGOR_SOURCE_DIR "/docs/user-guide.md");
  const char *files[] = {"shared/harness-base.yaml", "team-a/harness.yaml", "team-b/harness.yaml"};
  for (size_t i = 0; i < 3; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", EXAMPLE_DIR, files[i]);
    char *text = slurp(path), *block = malloc(strlen(text) + 16);
    sprintf(block, "```yaml\n%s```\n", text);
    if (!strstr(guide, block)) fail_msg("docs/user-guide.md does not show %s as it is", files[i]);
    free(text), free(block);
  }
  const char *runs[] = {"rigor run examples/shared-configs/team-a/harness.yaml --config-path "
                        "examples/shared-configs/shared",
                        "rigor run examples/shared-configs/team-b/harness.yaml --config-path "
                        "examples/shared-configs/shared"};
  char cmd[16384];
  for (size_t i = 0; i < 2; i++) {
    assert_non_null(strstr(guide, runs[i]));
    char *folder = path_of(i ? "guide-b" : "guide-a");
    mkdir(folder, 0755);
    /* The same command with the source tree's paths, run where its results may land. */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' run '%s/team-%c/harness.yaml' --config-path '%s/shared' "
             "--no-report >/dev/null 2>&1",
             folder, RIGOR_EXE, EXAMPLE_DIR, i ? 'b' : 'a', EXAMPLE_DIR);
    assert_int_equal(system(cmd), 0);
    char results[8192];
    snprintf(results, sizeof results, "%s/results/team-%c-harness.jsonl", folder, i ? 'b' : 'a');
    char *text = slurp(results);
    assert_non_null(strstr(text, "\"type\":\"run\""));
    free(text), free(folder);
  }
  /* A changed base, in a copy of the example. */
  char *copy = path_of("guide-copy");
  snprintf(cmd, sizeof cmd,
           "cp -r '%s' '%s' && sed -i 's/spin_ns: 1000/spin_ns: 2000/' "
           "'%s/shared/harness-base.yaml'",
           EXAMPLE_DIR, copy, copy);
  assert_int_equal(system(cmd), 0);
  snprintf(cmd, sizeof cmd,
           "cd '%s/..' && '%s' run guide-copy/team-b/harness.yaml --config-path "
           "guide-copy/shared 2>&1",
           copy, RIGOR_EXE);
  FILE *pipe = popen(cmd, "r");
  char line[4096] = "";
  assert_non_null(fgets(line, sizeof line, pipe));
  assert_int_equal(WEXITSTATUS(pclose(pipe)), 2);
  const char *shown = strstr(guide, "examples/shared-configs/team-b/harness.yaml:2:44: ");
  assert_non_null(shown);
  /* The guide's line, up to the hash it elides, with the copy's folder for the example's. */
  const char *cut = strstr(shown, "has sha256 ");
  char expect[4096];
  snprintf(expect, sizeof expect, "%.*s", (int)(cut - shown), shown);
  char got[8192], *w = got;
  for (const char *r = line; *r;)
    if (strncmp(r, "guide-copy/", 11) == 0)
      w += sprintf(w, "examples/shared-configs/"), r += 11;
    else
      *w++ = *r++;
  *w = '\0';
  assert_memory_equal(got, expect, strlen(expect));
  assert_non_null(strstr(got, ", not the pinned one: the base changed; review the change, then "
                              "pin the new hash"));
  free(copy), free(guide);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_base_by_name_from_the_config_path),
      cmocka_unit_test(test_search_order),
      cmocka_unit_test(test_beside_wins_and_names_that_are_not_searched),
      cmocka_unit_test(test_trust_check),
      cmocka_unit_test(test_untrusted_bases_are_refused),
      cmocka_unit_test(test_pin),
      cmocka_unit_test(test_pin_covers_what_the_base_extends),
      cmocka_unit_test(test_pinned_base_warns_once),
      cmocka_unit_test(test_cli),
      cmocka_unit_test(test_user_guide_example),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
