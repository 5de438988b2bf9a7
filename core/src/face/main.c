#include "cli.h"

int main(int argc, char **argv) {
  return rigor_cli_main(argc, argv);
}
