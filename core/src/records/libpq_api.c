#include "libpq_api.h"

#include <dlfcn.h>
#include <stdio.h>

static rigor_libpq_t api;
static int loaded; /* 0 not tried, 1 loaded, -1 failed */
static char failure[512];

#define RIGOR_LIBPQ_SYMBOL(field, name)                                                            \
  do {                                                                                             \
    *(void **)&api.field = dlsym(lib, #name);                                                      \
    if (!api.field) {                                                                              \
      snprintf(failure, sizeof failure, "libpq.so.5 has no %s", #name);                            \
      return -1;                                                                                   \
    }                                                                                              \
  } while (0)

static int load(void) {
  void *lib = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(failure, sizeof failure,
             "PostgreSQL needs libpq (Debian's libpq5), which cannot be loaded: %s", dlerror());
    return -1;
  }
  RIGOR_LIBPQ_SYMBOL(connectdb, PQconnectdb);
  RIGOR_LIBPQ_SYMBOL(status, PQstatus);
  RIGOR_LIBPQ_SYMBOL(errorMessage, PQerrorMessage);
  RIGOR_LIBPQ_SYMBOL(finish, PQfinish);
  RIGOR_LIBPQ_SYMBOL(setNoticeProcessor, PQsetNoticeProcessor);
  RIGOR_LIBPQ_SYMBOL(execParams, PQexecParams);
  RIGOR_LIBPQ_SYMBOL(resultStatus, PQresultStatus);
  RIGOR_LIBPQ_SYMBOL(resultErrorMessage, PQresultErrorMessage);
  RIGOR_LIBPQ_SYMBOL(nfields, PQnfields);
  RIGOR_LIBPQ_SYMBOL(ntuples, PQntuples);
  RIGOR_LIBPQ_SYMBOL(getisnull, PQgetisnull);
  RIGOR_LIBPQ_SYMBOL(getvalue, PQgetvalue);
  RIGOR_LIBPQ_SYMBOL(clear, PQclear);
  return 1; /* the library stays loaded for the process's life */
}

const rigor_libpq_t *rigor_libpq(char *err, size_t errlen) {
  if (!loaded) loaded = load();
  if (loaded < 0) {
    snprintf(err, errlen, "%s", failure);
    return NULL;
  }
  return &api;
}
