/* The test host of the installed SDK (rigor/test_host.h) under the names rigor's own tests use,
 * and a plugin opener that aborts the test when the module does not load. */
#ifndef RIGOR_TESTS_TEST_HOST_H
#define RIGOR_TESTS_TEST_HOST_H

#include "rigor/test_host.h"

typedef rigor_test_host_t test_host_t;

/* Fills the table; the rigor_ctx_t passed to plugin callbacks must be (rigor_ctx_t *)th. */
void test_host_init(test_host_t *th);

/* dlopen a plugin module and return the descriptor called `name` (aborts on failure). */
const rigor_plugin_t *test_plugin_open(const char *so_path, const char *name, void **handle);

#endif
