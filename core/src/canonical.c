#include "experiment.h"

#include <openssl/evp.h>
#include <stdio.h>

/* Reals keep 15 significant digits: every decimal a config can spell with at most 15 digits
 * prints back as written, and the text is the same on every platform. */
char *rigor_canonical_dump(const json_t *resolved) {
  return json_dumps(resolved,
                    JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY);
}

void rigor_sha256_hex(const void *data, size_t len, char out[65]) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (!EVP_Digest(data, len, digest, &n, EVP_sha256(), NULL)) n = 0;
  for (unsigned int i = 0; i < n && i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", digest[i]);
  out[2 * (n < 32 ? n : 32)] = '\0';
}
