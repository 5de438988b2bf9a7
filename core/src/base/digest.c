#include "digest.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

#include "rigor/plugin.h"

void rigor_sha256_hex(const void *data, size_t len, char out[65]) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (!EVP_Digest(data, len, digest, &n, EVP_sha256(), NULL)) n = 0;
  for (unsigned int i = 0; i < n && i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", digest[i]);
  out[2 * (n < 32 ? n : 32)] = '\0';
}

int rigor_file_sha256(const char *path, char out[65]) {
  if (!path || !out) return RIGOR_EINVAL;
  FILE *f = fopen(path, "rb");
  if (!f) return errno == ENOENT ? RIGOR_ENOENT : RIGOR_EIO;
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  int rc = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1 ? 0 : RIGOR_ENOMEM;
  unsigned char chunk[65536];
  size_t got;
  while (rc == 0 && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
    if (EVP_DigestUpdate(ctx, chunk, got) != 1) rc = RIGOR_EIO;
  if (rc == 0 && ferror(f)) rc = RIGOR_EIO;
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (rc == 0 && EVP_DigestFinal_ex(ctx, md, &len) != 1) rc = RIGOR_EIO;
  for (unsigned int i = 0; rc == 0 && i < len; i++)
    snprintf(out + 2 * i, 3, "%02x", md[i]);
  EVP_MD_CTX_free(ctx);
  fclose(f);
  return rc;
}

struct rigor_sha256 {
  EVP_MD_CTX *ctx;
};

rigor_sha256_t *rigor_sha256_begin(void) {
  rigor_sha256_t *h = malloc(sizeof *h);
  if (!h) return NULL;
  h->ctx = EVP_MD_CTX_new();
  if (!h->ctx || EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL) != 1) {
    rigor_sha256_free(h);
    return NULL;
  }
  return h;
}

void rigor_sha256_update(rigor_sha256_t *h, const void *data, size_t len) {
  if (h) EVP_DigestUpdate(h->ctx, data, len);
}

void rigor_sha256_end(rigor_sha256_t *h, char out[65]) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!h || EVP_DigestFinal_ex(h->ctx, md, &len) != 1) len = 0;
  for (unsigned int i = 0; i < len && i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", md[i]);
  out[2 * (len < 32 ? len : 32)] = '\0';
  rigor_sha256_free(h);
}

void rigor_sha256_free(rigor_sha256_t *h) {
  if (!h) return;
  EVP_MD_CTX_free(h->ctx);
  free(h);
}
