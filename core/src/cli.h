#ifndef RIGOR_CLI_H
#define RIGOR_CLI_H

int rigor_cli_main(int argc, char **argv);

#endif
