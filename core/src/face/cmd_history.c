#include <stdio.h>

#include "cli.h"

int rigor_cmd_history(int argc, char **argv) {
  (void)argc, (void)argv;
  fputs("rigor history: not built yet\n", stderr);
  return RIGOR_EXIT_USAGE;
}
