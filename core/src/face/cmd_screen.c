#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis.h"
#include "campaign.h"
#include "cli.h"
#include "config_args.h"
#include "screen.h"
#include "compare_doc.h"
#include "slurm.h"
#include "slurm_submit.h"
#include "snapshot.h"
#include "units.h"
#include "writers.h"

static const char about[] =
    "Runs one experiment of FILE on every node named (--nodes all: every node of the cluster,\n"
    "idle ones first) inside one Slurm batch job, each node's runs one job step at the same\n"
    "time, and judges each node against the fleet: its figure, its ratio to the fleet's median\n"
    "with an interval from its own runs, Holm-adjusted over the nodes, and a verdict (slow,\n"
    "fast, same, inconclusive) at the threshold. Nodes whose runs failed are listed with the\n"
    "reason. Each node's results are kept in DIR/NODE.jsonl. Exit 4 when a node is slow.\n"
    "With --pairs the units are pairs of nodes, each node with the next in a ring, for\n"
    "collectives across nodes: the experiment's launcher places its ranks on the pair through\n"
    "{nodes}, pairs on different nodes run at once, and a node all of whose pairs are slow or\n"
    "failed is named a suspect (docs/cluster.md).\n";

/* What the submitter keeps for the driver, and the driver for each node's `rigor run`. */
static const char *const submit_drops_value[] = {"--nodes",   "--partition", "--time",
                                                 "--account", "--threshold", "--format",
                                                 "-o",        "--output",    NULL};
static const char *const submit_drops_flag[] = {"--slurm", NULL};
static const char *const node_drops_value[] = {"-o", "--output", "--nodes", NULL};
static const char *const node_drops_flag[] = {"--force", "--pairs", NULL};

/* The last line of a node's log: why its step failed, in Slurm's or rigor's words. */
static void last_line(const char *path, char *buf, size_t len) {
  buf[0] = '\0';
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[1024];
  while (fgets(line, sizeof line, f))
    if (line[strspn(line, " \t\n")]) snprintf(buf, len, "%s", line);
  fclose(f);
  buf[strcspn(buf, "\n")] = '\0';
}

/* The pairs of a ring of nodes, "a+b" each: every node with the next; two nodes make one. */
static json_t *ring_pairs(const json_t *nodes) {
  size_t n = json_array_size(nodes);
  json_t *pairs = json_array();
  for (size_t i = 0; pairs && n >= 2 && i < (n == 2 ? 1 : n); i++) {
    char pair[1024];
    snprintf(pair, sizeof pair, "%s+%s", json_string_value(json_array_get(nodes, i)),
             json_string_value(json_array_get(nodes, (i + 1) % n)));
    json_array_append_new(pairs, json_string(pair));
  }
  return pairs;
}

/* Starts `self ARGS...` here for one pair, with RIGOR_NODES naming its nodes for the launcher's
 * {nodes}, its records into DIR/PAIR.jsonl and its stderr into DIR/PAIR.log; the pid or -1. */
static pid_t start_pair(const char *self, const char **args, const char *dir, const char *pair) {
  char out[8500], log[8500], nodes[1024];
  snprintf(out, sizeof out, "%s/%s.jsonl", dir, pair);
  snprintf(log, sizeof log, "%s/%s.log", dir, pair);
  snprintf(nodes, sizeof nodes, "%s", pair);
  nodes[strcspn(nodes, "+")] = ',';
  int o = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int e = o < 0 ? -1 : open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  pid_t pid = e < 0 ? -1 : fork();
  if (pid == 0) {
    dup2(o, STDOUT_FILENO);
    dup2(e, STDERR_FILENO);
    setenv("RIGOR_NODES", nodes, 1);
    execv(self, (char *const *)args);
    fprintf(stderr, "rigor screen: cannot execute %s: %s\n", self, strerror(errno));
    _exit(127);
  }
  if (o >= 0) close(o);
  if (e >= 0) close(e);
  return pid;
}

/* Whether node `name` belongs to pair `pair` ("a+b"). */
static bool in_pair(const char *pair, const char *name) {
  const char *plus = strchr(pair, '+');
  if (!plus) return false;
  size_t n = strlen(name);
  return ((size_t)(plus - pair) == n && strncmp(pair, name, n) == 0) || strcmp(plus + 1, name) == 0;
}

/* Inside the allocation, --pairs: every pair of the ring runs the experiment from here, its
 * launcher placing the ranks on the pair; pairs that share no node run at once. */
static int drive_pairs(const char *self, const json_t *nodes, const char **args, const char *dir) {
  json_t *pairs = ring_pairs(nodes);
  size_t n = json_array_size(pairs);
  pid_t *pids = calloc(n ? n : 1, sizeof *pids);
  char *state = calloc(n ? n : 1, 1); /* 0 waiting, 1 running, 2 done */
  if (!pairs || !pids || !state) {
    json_decref(pairs), free(pids), free(state);
    fprintf(stderr, "rigor screen: out of memory\n");
    return RIGOR_EXIT_RUN_FAILED;
  }
  fprintf(stderr, "rigor screen: Slurm job %s: the experiment on %zu pairs of nodes\n",
          getenv("SLURM_JOB_ID") ? getenv("SLURM_JOB_ID") : "?", n);
  for (size_t left = n; left > 0;) {
    for (size_t i = 0; i < n; i++) {
      if (state[i]) continue;
      const char *pair = json_string_value(json_array_get(pairs, i));
      bool free_nodes = true;
      for (size_t j = 0; j < n && free_nodes; j++) {
        if (state[j] != 1) continue;
        const char *other = json_string_value(json_array_get(pairs, j));
        for (size_t k = 0; k < json_array_size(nodes); k++) {
          const char *node = json_string_value(json_array_get(nodes, k));
          if (in_pair(pair, node) && in_pair(other, node)) free_nodes = false;
        }
      }
      if (!free_nodes) continue;
      pids[i] = start_pair(self, args, dir, pair);
      if (pids[i] < 0) {
        fprintf(stderr, "rigor screen: %s: cannot start: %s\n", pair, strerror(errno));
        state[i] = 2;
        left--;
        continue;
      }
      state[i] = 1;
    }
    int status;
    pid_t got = waitpid(-1, &status, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    for (size_t i = 0; i < n; i++)
      if (state[i] == 1 && pids[i] == got) {
        state[i] = 2;
        left--;
        fprintf(stderr, "rigor screen: %s: %s %d\n", json_string_value(json_array_get(pairs, i)),
                WIFEXITED(status) ? "exit" : "signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
      }
  }
  json_decref(pairs), free(pids), free(state);
  return RIGOR_EXIT_OK;
}

/* Inside the allocation: `rigor run` on every node at once, or on every pair of them (the
 * nodes in `order`, as the submitter named them). */
static int drive(int argc, char **argv, const char *dir, bool pairs, const char *order) {
  char err[1024], self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = '\0';
  json_t *nodes = rigor_slurm_hostnames(getenv("SLURM_JOB_NODELIST"), err, sizeof err);
  if (!nodes) {
    fprintf(stderr, "rigor screen: %s (is this a Slurm batch job?)\n", err);
    return RIGOR_EXIT_RUN_FAILED;
  }
  size_t n_nodes = json_array_size(nodes);
  const char **names = calloc(n_nodes, sizeof *names);
  unsigned *cpus = calloc(n_nodes, sizeof *cpus);
  int *statuses = calloc(n_nodes, sizeof *statuses);
  const char **rest = rigor_args_without(argc, argv, node_drops_value, node_drops_flag);
  size_t n_rest = 0;
  while (rest && rest[n_rest])
    n_rest++;
  const char **step = calloc(n_rest + 7, sizeof *step);
  int code = RIGOR_EXIT_RUN_FAILED;
  if (!names || !cpus || !statuses || !rest || !step) goto out;
  for (size_t i = 0; i < n_nodes; i++)
    names[i] = json_string_value(json_array_get(nodes, i));
  rigor_campaign_cpus(getenv("SLURM_JOB_CPUS_PER_NODE"), cpus, n_nodes);
  size_t k = 0;
  /* Every run of the experiment, its records sent back over srun's stdout. */
  step[k++] = "__step";
  step[k++] = "all";
  for (size_t i = 0; i < n_rest; i++)
    step[k++] = rest[i];
  step[k++] = "--force";
  step[k++] = "--quiet";
  step[k++] = "--no-report";
  step[k] = NULL;
  if (pairs) {
    json_t *ordered = order ? rigor_slurm_hostnames(order, err, sizeof err) : json_incref(nodes);
    const char **args = calloc(k + 2, sizeof *args);
    if (ordered && args) {
      args[0] = self;
      for (size_t i = 0; i < k; i++)
        args[i + 1] = step[i];
      code = drive_pairs(self, ordered, args, dir);
    }
    json_decref(ordered);
    free(args);
    goto out;
  }
  rigor_campaign_t c = {
      .nodes = names, .n_nodes = n_nodes, .cpus = cpus, .self = self, .step_args = step};
  fprintf(stderr, "rigor screen: Slurm job %s: the experiment on %zu nodes at once\n",
          getenv("SLURM_JOB_ID") ? getenv("SLURM_JOB_ID") : "?", n_nodes);
  if (rigor_campaign_each_node(&c, dir, "rigor-screen", statuses, err, sizeof err) != 0)
    fprintf(stderr, "rigor screen: %s\n", err);
  for (size_t i = 0; i < n_nodes; i++)
    fprintf(stderr, "rigor screen: %s: %s %d\n", names[i],
            WIFEXITED(statuses[i]) ? "exit" : "signal",
            WIFEXITED(statuses[i]) ? WEXITSTATUS(statuses[i]) : WTERMSIG(statuses[i]));
  code = RIGOR_EXIT_OK;
out:
  free(names), free(cpus), free(statuses), free(rest), free(step);
  json_decref(nodes);
  return code;
}

/* Each node's results, read back after the job; judged and shown. */
static int judge(json_t *nodes, const json_t *unusable, const char *dir, const char *name,
                 double threshold, const rigor_writer_t *writer) {
  size_t n_run = json_array_size(nodes), n = n_run + json_object_size(unusable);
  rigor_screen_input_t *in = calloc(n ? n : 1, sizeof *in);
  rigor_analysis_t **a = calloc(n ? n : 1, sizeof *a);
  char(*why)[9000] = calloc(n ? n : 1, sizeof *why);
  if (!in || !a || !why) {
    free(in), free(a), free(why);
    fprintf(stderr, "rigor screen: out of memory\n");
    return RIGOR_EXIT_RUN_FAILED;
  }
  /* Nodes Slurm could not give the job are listed with their state. */
  const char *key;
  json_t *state;
  size_t k = n_run;
  json_object_foreach((json_t *)unusable, key, state) {
    in[k].node = key;
    snprintf(why[k], sizeof why[k], "not screened: sinfo reports it %s", json_string_value(state));
    in[k].failure = why[k];
    k++;
  }
  for (size_t i = 0; i < n_run; i++) {
    in[i].node = json_string_value(json_array_get(nodes, i));
    char path[8500], log[8500], err[1024];
    snprintf(path, sizeof path, "%s/%s.jsonl", dir, in[i].node);
    snprintf(log, sizeof log, "%s/%s.log", dir, in[i].node);
    const char *p = path;
    /* A step that never started leaves its file empty. */
    struct stat st;
    bool some = stat(path, &st) == 0 && st.st_size > 0;
    if (some && rigor_analysis_load(&p, 1, &a[i], err, sizeof err) == 0) {
      in[i].analysis = a[i];
      continue;
    }
    if (some)
      snprintf(why[i], sizeof why[i], "%s", err);
    else
      last_line(log, why[i], sizeof why[i]);
    if (!why[i][0]) snprintf(why[i], sizeof why[i], "its job step left no results (see %s)", log);
    in[i].failure = why[i];
  }
  rigor_screen_t s;
  char err[2048];
  int code = RIGOR_EXIT_RUN_FAILED;
  if (rigor_screen_judge(in, n, threshold, 0.05, &s, err, sizeof err) != 0) {
    fprintf(stderr, "rigor screen: %s\n", err);
  } else {
    rigor_doc_t *doc = rigor_screen_doc(&s, name);
    int wrc = doc ? writer->write(doc, stdout) : -1;
    fflush(stdout);
    rigor_doc_free(doc);
    code = wrc != 0                       ? RIGOR_EXIT_CANNOT_WRITE
           : s.count[RIGOR_SCREEN_SLOW]   ? RIGOR_EXIT_REGRESSION
           : s.count[RIGOR_SCREEN_FAILED] ? RIGOR_EXIT_RUN_FAILED
                                          : RIGOR_EXIT_OK;
    rigor_screen_free(&s);
  }
  for (size_t i = 0; i < n; i++)
    rigor_analysis_free(a[i]);
  free(in), free(a), free(why);
  return code;
}

/* Whether some variant's launcher places its ranks through {nodes}. */
static bool launches_on_nodes(const rigor_experiment_t *e) {
  for (uint32_t v = 0; v < e->n_variants; v++) {
    size_t i;
    const json_t *arg;
    json_array_foreach(json_object_get(e->variants[v].settings, "launcher"), i, arg) {
      const char *text = json_string_value(arg);
      if (text && strstr(text, "{nodes}")) return true;
    }
  }
  return false;
}

int rigor_cmd_screen(int argc, char **argv) {
  bool driver = strcmp(argv[0], "__screen") == 0;
  rigor_config_args_t ca;
  rigor_slurm_request_t req = {0};
  const char *output = NULL, *threshold_text = NULL, *format = NULL;
  bool slurm = false, force = false, allow_commands = false, pairs = false;
  rigor_option_t options[RIGOR_CONFIG_ARGS_N + 12] = {
      {"slurm", 0, NULL, "run on the cluster's nodes through Slurm (the only way for now)",
       .flag = &slurm},
      {"nodes", 0, "all|LIST", "the nodes to screen: every node, or a Slurm node list",
       .value = &req.nodes},
      {"threshold", 0, "PCT", "the smallest difference from the fleet that counts (default 5%)",
       .value = &threshold_text},
      {"output", 'o', "DIR",
       "keep each node's results in DIR (default: the file's output, .screen)", .value = &output},
      {"force", 0, NULL, "replace the results a screen left in DIR", .flag = &force},
      {"allow-commands", 0, NULL, "let the file execute the external commands `rigor plan` shows",
       .flag = &allow_commands},
      {"format", 0, "FMT", "text, md, csv, json or html (default text)", .value = &format},
      {"partition", 0, "P", "the partition", .value = &req.partition},
      {"time", 0, "T", "the job's time limit, in Slurm's syntax (minutes, H:MM:SS)",
       .value = &req.time},
      {"account", 0, "A", "the account charged", .value = &req.account},
      {"pairs", 0, NULL,
       "screen pairs of nodes (each with the next in a ring), the launcher placing the ranks "
       "on {nodes}",
       .flag = &pairs},
  };
  rigor_config_args_options(&ca, options + 11);
  const rigor_command_t cmd = {"screen", "FILE --slurm --nodes all|LIST [OPTION]...", about,
                               options};
  rigor_strings_t files = {0};
  rigor_config_t *cfg = NULL;
  json_t *nodes = NULL, *unusable = NULL, *units = NULL;
  double threshold = 0.05;
  int code = rigor_args_parse(&cmd, argc, argv, &files);
  const rigor_writer_t *writer = code < 0 ? rigor_args_writer(&cmd, format) : NULL;
  if (code < 0 && !writer) code = RIGOR_EXIT_USAGE;
  char perr[256];
  if (code < 0 && files.n != 1)
    code = rigor_usage_error(
        &cmd, files.n ? "screens one experiment file, not %zu" : "no experiment file given%.0zu",
        files.n);
  if (code < 0 && !slurm && !driver)
    code = rigor_usage_error(&cmd, "a screen runs on a cluster's nodes: give --slurm");
  if (code < 0 && !req.nodes && !driver)
    code = rigor_usage_error(&cmd, "--nodes: all, or a Slurm node list (n[1-4],gpu7)");
  if (code < 0 && threshold_text &&
      (rigor_parse_percent(threshold_text, &threshold, perr, sizeof perr) || !(threshold > 0)))
    code = rigor_usage_error(&cmd, "--threshold: %s", perr[0] ? perr : "must be above 0");
  if (code >= 0) goto out_args;
  code = RIGOR_EXIT_USAGE;
  if (rigor_config_args_finish(&cmd, &ca) >= 0) goto out_args;
  char serr[1024];
  if (rigor_snapshot_open(serr, sizeof serr) < 0) {
    fprintf(stderr, "rigor screen: %s\n", serr);
    code = RIGOR_EXIT_RUN_FAILED;
    goto out_args;
  }
  if (rigor_config_args_load(&ca, files.v[0], &cfg) != RIGOR_EXIT_OK) goto out_snapshot;
  if (cfg->n_experiments != 1) {
    fprintf(stderr, "rigor screen: %s holds %u experiments; a screen runs one (--only NAME)\n",
            files.v[0], cfg->n_experiments);
    goto out_config;
  }
  const rigor_experiment_t *e = &cfg->experiments[0];
  if (e->runs_commands && !allow_commands) {
    fprintf(stderr,
            "rigor screen: experiment '%s' would execute external commands (see `rigor plan`); "
            "nothing was run: rerun with --allow-commands to permit them\n",
            e->name);
    goto out_config;
  }
  char dir[4200];
  if (output)
    snprintf(dir, sizeof dir, "%s", output);
  else {
    size_t len = strlen(e->output);
    bool jsonl = len > 6 && strcmp(e->output + len - 6, ".jsonl") == 0;
    snprintf(dir, sizeof dir, "%.*s.screen", (int)(jsonl ? len - 6 : len), e->output);
  }
  if (pairs && !launches_on_nodes(e)) {
    fprintf(stderr,
            "rigor screen: --pairs: experiment '%s' has no launcher that places its ranks on "
            "{nodes} (e.g. launcher: [srun, --nodes=2, --nodelist, \"{nodes}\", --ntasks, "
            "\"{ranks}\"]), so a pair could not choose its nodes\n",
            e->name);
    goto out_config;
  }
  if (driver) {
    code = drive(argc, argv, dir, pairs, req.nodes);
    goto out_config;
  }
  char err[1024];
  nodes = strcmp(req.nodes, "all") == 0 ? rigor_slurm_all_nodes(&unusable, err, sizeof err)
                                        : rigor_slurm_hostnames(req.nodes, err, sizeof err);
  if (!nodes) {
    fprintf(stderr, "rigor screen: --nodes %s: %s\n", req.nodes, err);
    goto out_config;
  }
  if (pairs && json_array_size(nodes) < 3) {
    fprintf(stderr,
            "rigor screen: --pairs: %zu usable node%s make no ring of pairs; name three or more "
            "(five, so that the pairs' median stands one bad node)\n",
            json_array_size(nodes), json_array_size(nodes) == 1 ? "" : "s");
    goto out_config;
  }
  /* The units judged: the nodes, or the ring's pairs of them. */
  units = pairs ? ring_pairs(nodes) : json_incref(nodes);
  if (mkdir(dir, 0755) != 0 && !(errno == EEXIST && force)) {
    fprintf(stderr,
            errno == EEXIST ? "rigor screen: %s already exists; use --force to replace the "
                              "screen it holds, or -o for another folder\n"
                            : "rigor screen: cannot create %s\n",
            dir);
    goto out_config;
  }
  for (size_t i = 0; i < json_array_size(units); i++) {
    char path[4400];
    snprintf(path, sizeof path, "%s/%s.jsonl", dir, json_string_value(json_array_get(units, i)));
    unlink(path);
  }
  /* The allocation is exactly the nodes named. */
  char list[65536] = "";
  for (size_t i = 0; i < json_array_size(nodes); i++) {
    size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "%s%s", i ? "," : "",
             json_string_value(json_array_get(nodes, i)));
  }
  req.nodes = list;
  char scratch[3][64];
  rigor_slurm_request_defaults(&req, cfg->executor, scratch);
  const char **rest = rigor_args_without(argc, argv, submit_drops_value, submit_drops_flag);
  size_t n_rest = 0;
  while (rest && rest[n_rest])
    n_rest++;
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = '\0';
  char **inner = calloc(n_rest + 7, sizeof *inner);
  if (!rest || !inner) {
    free(rest), free(inner);
    goto out_config;
  }
  size_t k = 0;
  inner[k++] = self;
  inner[k++] = "__screen";
  for (size_t i = 0; i < n_rest; i++)
    inner[k++] = (char *)rest[i];
  inner[k++] = "--output";
  inner[k++] = dir;
  /* The driver pairs the nodes in this order, the one the judgement below reads them in. */
  inner[k++] = "--nodes";
  inner[k++] = list;
  char name[256], log[4400];
  snprintf(name, sizeof name, "rigor-screen-%s", e->name);
  snprintf(log, sizeof log, "%s/slurm-%%j.log", dir);
  int job = rigor_slurm_run_job(&req, name, log, inner, err, sizeof err);
  free(rest), free(inner);
  if (job < 0) {
    fprintf(stderr, "rigor screen: %s\n", err);
    code = RIGOR_EXIT_RUN_FAILED;
    goto out_config;
  }
  code = judge(units, unusable, dir, e->name, threshold, writer);
out_config:
  json_decref(units);
  json_decref(nodes);
  json_decref(unusable);
  rigor_config_free(cfg);
out_snapshot:
  rigor_snapshot_close();
out_args:
  rigor_strings_free(&files);
  rigor_config_args_free(&ca);
  return code;
}
