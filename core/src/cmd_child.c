#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "cli.h"
#include "comm_mpi.h"
#include "loader.h"
#include "spawn.h"

static volatile sig_atomic_t g_child_stop;

static void on_term(int sig) {
  (void)sig;
  g_child_stop = 1;
  _exit(128 + SIGTERM);
}

int rigor_cmd_child(int argc, char **argv) {
  const char *spec_path = argc > 1 ? argv[1] : NULL;
  const char *out_path = NULL;
  int out_fd = -1;
  bool mpi = false;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--out") && i + 1 < argc)
      out_path = argv[++i];
    else if (!strcmp(argv[i], "--out-fd") && i + 1 < argc)
      out_fd = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--mpi"))
      mpi = true;
  }
  if (!spec_path) {
    fprintf(stderr, "rigor __child: missing spec\n");
    return RIGOR_EXIT_USAGE;
  }
  signal(SIGTERM, on_term);
  json_error_t jerr;
  json_t *spec = json_load_file(spec_path, 0, &jerr);
  if (!spec) {
    fprintf(stderr, "rigor __child: %s:%d:%d: %s\n", spec_path, jerr.line, jerr.column, jerr.text);
    return RIGOR_EXIT_USAGE;
  }
  char err[1024];
  rigor_comm_t *comm = NULL;
  if (mpi && !(comm = rigor_comm_mpi_init(&argc, &argv, err, sizeof err))) {
    fprintf(stderr, "rigor __child: %s\n", err);
    json_decref(spec);
    return RIGOR_EXIT_RUN_FAILED;
  }
  const char *dirs[] = {json_string_value(json_object_get(spec, "plugin_dir")), NULL};
  rigor_plugin_search_t search = {dirs, json_is_true(json_object_get(spec, "allow_unsafe"))};
  rigor_loaded_t *plugin = NULL;
  int rank = comm ? comm->rank : 0;
  if (rank == 0 && out_path) out_fd = open(out_path, O_WRONLY | O_CLOEXEC);
  if (rigor_plugin_load(json_string_value(json_object_get(spec, "plugin")), &search, &plugin, err,
                        sizeof err) < 0) {
    fprintf(stderr, "rigor __child: %s\n", err);
    if (out_fd >= 0) {
      char line[1400];
      json_t *m = json_pack("{s:s, s:s, s:s}", "type", "end", "status", "failed", "reason", err);
      char *text = json_dumps(m, JSON_COMPACT);
      int n = snprintf(line, sizeof line, "%s\n", text ? text : "{}");
      if (write(out_fd, line, (size_t)n) < 0) perror("rigor __child");
      free(text);
      json_decref(m);
    }
    json_decref(spec);
    return RIGOR_EXIT_RUN_FAILED;
  }
  rigor_child_args_t a = {
      .experiment_name = json_string_value(json_object_get(spec, "experiment")),
      .settings = json_object_get(spec, "settings"),
      .plugin = &plugin->desc,
      .run = (uint32_t)json_integer_value(json_object_get(spec, "run")),
      .attempt = (uint32_t)json_integer_value(json_object_get(spec, "attempt")),
      .block = (uint32_t)json_integer_value(json_object_get(spec, "block")),
      .position = (uint32_t)json_integer_value(json_object_get(spec, "position")),
      .variant = (uint32_t)json_integer_value(json_object_get(spec, "variant")),
      .comm = comm ? comm : rigor_comm_single(),
      .out_fd = rank == 0 ? out_fd : -1,
      .commands_allowed = json_is_true(json_object_get(spec, "commands_allowed")),
      .stop = &g_child_stop,
  };
  int code = rigor_child_run(&a);
  if (comm) rigor_comm_mpi_finalize(comm);
  rigor_plugin_unload(plugin);
  json_decref(spec);
  return code;
}
