#include "cli.h"

#include <stdio.h>
#include <string.h>

int rigor_cli_main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--version") == 0) {
    printf("rigor %s (%s)\n", RIGOR_VERSION, RIGOR_GIT_HASH);
    return 0;
  }
  fprintf(stderr, "usage: rigor COMMAND ...\n");
  return 2;
}
