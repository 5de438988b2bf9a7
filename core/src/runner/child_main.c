#include "child_main.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bounds.h"
#include "child.h"
#include "comm_mpi.h"
#include "loader.h"
#include "slurm.h"
#include "wire.h"

static volatile sig_atomic_t g_child_stop;

static void on_term(int sig) {
  (void)sig;
  g_child_stop = 1;
  _exit(128 + SIGTERM);
}

/* The spec's arms: a param arm measures the plugin loaded here, a build arm a private copy of
 * its file; the square of their order inside the cycles is checked to hold only arms. */
static int read_arms(const rigor_run_spec_t *spec, const rigor_plugin_t *plugin,
                     rigor_child_arm_t **arms_out, uint32_t **square_out, rigor_child_args_t *a,
                     char *err, size_t errlen) {
  size_t k = json_array_size(spec->arms);
  const json_t *rows = json_object_get(spec->arm_order, "square");
  size_t n_rows = json_array_size(rows);
  if (k == 0 || k > RIGOR_MAX_ARMS || n_rows == 0 || n_rows > 2 * RIGOR_MAX_ARMS) {
    snprintf(err, errlen, "the spec holds %zu arms and %zu rows of their order", k, n_rows);
    return RIGOR_EINVAL;
  }
  rigor_child_arm_t *arms = calloc(k, sizeof *arms);
  uint32_t *square = calloc(k * n_rows, sizeof *square);
  *arms_out = arms;
  *square_out = square;
  if (!arms || !square) return snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM;
  for (size_t i = 0; i < k; i++) {
    const json_t *arm = json_array_get(spec->arms, i);
    arms[i] = (rigor_child_arm_t){
        .settings = json_object_get(arm, "settings"),
        .plugin = plugin,
        .plugin_file = json_string_value(json_object_get(arm, "plugin_file")),
        .plugin_name = spec->plugin,
        .variant = (uint32_t)json_integer_value(json_object_get(arm, "variant")),
    };
    if (!json_is_object(arms[i].settings))
      return snprintf(err, errlen, "arm %zu of the spec has no settings", i), RIGOR_EINVAL;
    if (rigor_timing_from_json(json_object_get(arms[i].settings, "timing"), &arms[i].timing, err,
                               errlen) < 0)
      return RIGOR_EINVAL;
  }
  for (size_t r = 0; r < n_rows; r++)
    for (size_t slot = 0; slot < k; slot++) {
      const json_t *v = json_array_get(json_array_get(rows, r), slot);
      if (!json_is_integer(v) || json_integer_value(v) < 0 || (size_t)json_integer_value(v) >= k)
        return snprintf(err, errlen, "the spec's arm order names no arm at row %zu", r),
               RIGOR_EINVAL;
      square[r * k + slot] = (uint32_t)json_integer_value(v);
    }
  a->arms = arms;
  a->n_arms = (uint32_t)k;
  a->arm_square = square;
  a->arm_rows = (uint32_t)n_rows;
  a->arm_first_row =
      (uint32_t)json_integer_value(json_object_get(spec->arm_order, "first_row")) % a->arm_rows;
  a->allow_unsafe = spec->allow_unsafe;
  return 0;
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
  /* One task of srun is a whole run: there are no other ranks to find. */
  int single = mpi ? rigor_slurm_single_task(err, sizeof err) : 0;
  if (single < 0) {
    fprintf(stderr, "rigor __child: %s\n", err);
    const char *rank = getenv("SLURM_PROCID");
    if (out_path && rank && strcmp(rank, "0") == 0)
      rigor_wire_send(
          open(out_path, O_WRONLY | O_CLOEXEC),
          rigor_wire_end(&(rigor_run_end_t){.status = RIGOR_RUN_FAILED, .reason = err}));
    json_decref(doc);
    return RIGOR_CHILD_FAILED;
  }
  if (single) mpi = false;
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
  rigor_child_arm_t *arms = NULL;
  uint32_t *square = NULL;
  int code;
  /* The spec is the settings' one serialised form: the timing and the environment are parsed
   * from it once, here. */
  int rc =
      rigor_timing_from_json(json_object_get(spec.settings, "timing"), &a.timing, err, sizeof err);
  if (!rc)
    rc = rigor_environment_from_json(json_object_get(spec.settings, "environment"), &a.environment,
                                     err, sizeof err);
  if (!rc && spec.arms) rc = read_arms(&spec, &plugin->desc, &arms, &square, &a, err, sizeof err);
  if (rc < 0) {
    fprintf(stderr, "rigor __child: %s: %s\n", spec_path, err);
    rigor_wire_send(out_fd,
                    rigor_wire_end(&(rigor_run_end_t){.status = RIGOR_RUN_FAILED, .reason = err}));
    code = RIGOR_CHILD_BAD_SPEC;
  } else {
    code = rigor_child_run(&a);
  }
  free(arms), free(square);
  if (comm) rigor_comm_mpi_finalize(comm);
  rigor_plugin_unload(plugin);
  json_decref(doc);
  return code;
}
