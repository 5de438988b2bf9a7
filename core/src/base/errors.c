#include "errors.h"

const char *rigor_strerror(int code) {
  switch (code) {
#define RIGOR_ERR_MSG(name, value, msg)                                                            \
  case value:                                                                                      \
    return msg;
    RIGOR_ERRNO_MAP(RIGOR_ERR_MSG)
#undef RIGOR_ERR_MSG
  case 0:
    return "success";
  default:
    return "unknown error";
  }
}

const char *rigor_err_name(int code) {
  switch (code) {
#define RIGOR_ERR_NAME(name, value, msg)                                                           \
  case value:                                                                                      \
    return "RIGOR_" #name;
    RIGOR_ERRNO_MAP(RIGOR_ERR_NAME)
#undef RIGOR_ERR_NAME
  case 0:
    return "0";
  default:
    return "RIGOR_EUNKNOWN";
  }
}
