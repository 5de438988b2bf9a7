#include "exec_match.h"

bool exec_match_groups(const regex_t *re, const char *text, size_t len, regmatch_t *g, size_t n) {
  g[0].rm_so = 0;
  g[0].rm_eo = (regoff_t)len;
  return regexec(re, text, n, g, REG_STARTEND) == 0;
}

bool exec_match(const regex_t *re, const char *text, size_t len) {
  regmatch_t whole[1];
  return exec_match_groups(re, text, len, whole, 1);
}
