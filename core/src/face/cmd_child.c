#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child_main.h"
#include "cli.h"

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
  return rigor_child_main(spec_path, out_path, out_fd, mpi, &argc, &argv);
}
