#include "child_main.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "child.h"
#include "comm_mpi.h"
#include "loader.h"
#include "wire.h"

static volatile sig_atomic_t g_child_stop;

static void on_term(int sig) {
  (void)sig;
  g_child_stop = 1;
  _exit(128 + SIGTERM);
}

int rigor_child_main(const char *spec_path, const char *out_path, int out_fd, bool mpi, int *argc,
                     char ***argv) {
  signal(SIGTERM, on_term);
  json_error_t jerr;
  json_t *doc = json_load_file(spec_path, 0, &jerr);
  if (!doc) {
    fprintf(stderr, "rigor __child: %s:%d:%d: %s\n", spec_path, jerr.line, jerr.column, jerr.text);
    return RIGOR_CHILD_BAD_SPEC;
  }
  char err[1024];
  rigor_run_spec_t spec;
  if (rigor_wire_spec_read(doc, &spec, err, sizeof err) < 0) {
    fprintf(stderr, "rigor __child: %s: %s\n", spec_path, err);
    json_decref(doc);
    return RIGOR_CHILD_BAD_SPEC;
  }
  rigor_comm_t *comm = NULL;
  if (mpi && !(comm = rigor_comm_mpi_init(argc, argv, err, sizeof err))) {
    fprintf(stderr, "rigor __child: %s\n", err);
    json_decref(doc);
    return RIGOR_CHILD_FAILED;
  }
  const char *dirs[] = {spec.plugin_dir, NULL};
  /* The folder the parent resolved, and no other: a build's plugin is never shadowed. */
  rigor_plugin_search_t search = {dirs, spec.allow_unsafe, true};
  rigor_loaded_t *plugin = NULL;
  int rank = comm ? comm->rank : 0;
  if (rank == 0 && out_path) out_fd = open(out_path, O_WRONLY | O_CLOEXEC);
  if (rank != 0) out_fd = -1;
  if (rigor_plugin_load(spec.plugin, &search, &plugin, err, sizeof err) < 0) {
    fprintf(stderr, "rigor __child: %s\n", err);
    rigor_wire_send(out_fd,
                    rigor_wire_end(&(rigor_run_end_t){.status = RIGOR_RUN_FAILED, .reason = err}));
    if (comm) rigor_comm_mpi_finalize(comm);
    json_decref(doc);
    return RIGOR_CHILD_FAILED;
  }
  rigor_child_args_t a = {
      .experiment_name = spec.experiment,
      .settings = spec.settings,
      .plugin = &plugin->desc,
      .run = spec.run,
      .attempt = spec.attempt,
      .block = spec.block,
      .position = spec.position,
      .variant = spec.variant,
      .comm = comm ? comm : rigor_comm_single(),
      .out_fd = out_fd,
      .commands_allowed = spec.commands_allowed,
      .deadline_s = spec.deadline_s,
      .stop = &g_child_stop,
  };
  int code = rigor_child_run(&a);
  if (comm) rigor_comm_mpi_finalize(comm);
  rigor_plugin_unload(plugin);
  json_decref(doc);
  return code;
}
