#ifndef OBSERVABLE_COPENSSL_SHIM_H
#define OBSERVABLE_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// Swift cannot call OpenSSL's function-like macros (most are SSL_ctrl or BIO_ctrl with a
// command number) nor its type-safe stack macros; each wrapper below expands one of them,
// exactly as the macro does, and nothing more.

/// `SSL_CTX_set_min_proto_version`: the oldest protocol the context accepts.
static inline int observable_ssl_ctx_set_min_proto_version(SSL_CTX *context, int version) {
  return (int)SSL_CTX_set_min_proto_version(context, version);
}

/// `SSL_CTX_set_mode`: adds mode bits, returns the new mode.
static inline long observable_ssl_ctx_set_mode(SSL_CTX *context, long mode) {
  return SSL_CTX_set_mode(context, mode);
}

/// `SSL_set_tlsext_host_name`: the name a client sends in Server Name Indication.
static inline int observable_ssl_set_tlsext_host_name(SSL *ssl, const char *name) {
  return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// `BIO_set_retry_read`: a BIO's read found nothing yet, and more may arrive.
static inline void observable_bio_set_retry_read(BIO *bio) { BIO_set_retry_read(bio); }

/// `BIO_clear_retry_flags`: a BIO's read or write is not waiting for anything.
static inline void observable_bio_clear_retry_flags(BIO *bio) { BIO_clear_retry_flags(bio); }

/// `BIO_get_mem_data`: the bytes a memory BIO holds, without copying them.
static inline long observable_bio_get_mem_data(BIO *bio, const char **data) {
  char *bytes = NULL;
  long length = BIO_get_mem_data(bio, &bytes);
  *data = bytes;
  return length;
}

/// `sk_GENERAL_NAME_num`.
static inline int observable_general_names_count(const GENERAL_NAMES *names) {
  return sk_GENERAL_NAME_num(names);
}

/// One subject alternative name: its type (`GEN_DNS`, `GEN_IPADD`, ...) and, for the string
/// and address types, its bytes; other types give a NULL `data`.
static inline int observable_general_name_at(const GENERAL_NAMES *names, int index,
                                             const unsigned char **data, int *length) {
  const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, index);
  const ASN1_STRING *value = NULL;
  switch (name->type) {
  case GEN_DNS: value = name->d.dNSName; break;
  case GEN_EMAIL: value = name->d.rfc822Name; break;
  case GEN_URI: value = name->d.uniformResourceIdentifier; break;
  case GEN_IPADD: value = name->d.iPAddress; break;
  default: break;
  }
  *data = value ? ASN1_STRING_get0_data(value) : NULL;
  *length = value ? ASN1_STRING_length(value) : 0;
  return name->type;
}

/// `SSL_OP_NO_RENEGOTIATION`, built with the `SSL_OP_BIT` macro Swift cannot expand: a peer's
/// request to renegotiate TLS 1.2 is answered with a no_renegotiation alert.
static const uint64_t observable_ssl_op_no_renegotiation = SSL_OP_NO_RENEGOTIATION;

/// `SSL_OP_CIPHER_SERVER_PREFERENCE`, another `SSL_OP_BIT`: the server's order of cipher
/// suites decides, not the client's.
static const uint64_t observable_ssl_op_cipher_server_preference = SSL_OP_CIPHER_SERVER_PREFERENCE;

/// Writes `name` in RFC 2253 form (`CN=client,O=Example`), the form authorization rules name a
/// subject in; `XN_FLAG_RFC2253` is a macro of macros.
static inline int observable_x509_name_print_rfc2253(BIO *bio, const X509_NAME *name) {
  return X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253);
}

/// `OPENSSL_free`, for strings OpenSSL allocated (`BN_bn2hex`).
static inline void observable_openssl_free(void *pointer) { OPENSSL_free(pointer); }

#endif
