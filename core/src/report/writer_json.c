#include "writers.h"

int rigor_write_json(const rigor_doc_t *doc, FILE *out) {
  json_t *j = doc->json ? doc->json(doc->json_arg) : json_incref(doc->data);
  if (!j) return RIGOR_ENOMEM;
  int rc = json_dumpf(j, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
  fputc('\n', out);
  json_decref(j);
  return rc || ferror(out) ? RIGOR_EIO : 0;
}
