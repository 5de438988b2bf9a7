#ifndef RIGOR_ERRORS_H
#define RIGOR_ERRORS_H

#include "rigor/plugin.h"

const char *rigor_strerror(int code);
const char *rigor_err_name(int code);

#endif
