/* A single-rank host services table for driving plugins directly in unit tests. */
#ifndef RIGOR_TEST_HOST_H
#define RIGOR_TEST_HOST_H

#include "rigor/plugin.h"

typedef struct test_host {
  rigor_host_t host;
  int first_error_code;
  char first_error[512];
  int stop;
  int cpus[8];
  int n_cpus;
  int allow_commands;
} test_host_t;

/* Fills the table; the rigor_ctx_t passed to plugin callbacks must be (rigor_ctx_t *)th. */
void test_host_init(test_host_t *th);

/* dlopen a plugin module and return the descriptor called `name` (asserts on failure). */
const rigor_plugin_t *test_plugin_open(const char *so_path, const char *name, void **handle);

#endif
