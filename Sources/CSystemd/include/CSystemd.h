#ifndef OBSERVABLE_CSYSTEMD_H
#define OBSERVABLE_CSYSTEMD_H

// libsystemd is loaded with dlopen on first use instead of being linked, so the server
// builds without libsystemd-dev and runs where libsystemd.so.0 is absent (containers,
// other init systems). Every wrapper returns -ENOSYS when the library is unavailable.

#include <stdint.h>

// Nullability annotations tell Swift which pointers are optional; they are a Clang
// extension, which is what SwiftPM compiles C targets with.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-extension"
#endif

/// The first descriptor passed by socket activation (SD_LISTEN_FDS_START).
#define OBSERVABLE_SD_LISTEN_FDS_START 3

/// 1 when libsystemd.so.0 and every symbol used here were loaded, otherwise 0.
int observable_systemd_available(void);

/// Why loading failed (dlerror text), or NULL when the library is available.
const char *_Nullable observable_systemd_load_error(void);

/// sd_listen_fds_with_names(3). On success with a positive count, *names is a malloc'd
/// array of that many malloc'd strings which the caller frees.
int observable_sd_listen_fds_with_names(int unset_environment,
                                        char *_Nullable *_Nullable *_Nullable names);

/// sd_is_socket(3): positive when fd is a socket of the family (AF_UNSPEC for any), type
/// (0 for any) and listening state (-1 to ignore, 0 not listening, 1 listening).
int observable_sd_is_socket(int fd, int family, int type, int listening);

/// sd_notify(3): positive when sent, 0 when NOTIFY_SOCKET is not set, negative errno.
int observable_sd_notify(int unset_environment, const char *_Nonnull state);

/// sd_watchdog_enabled(3): positive with *usec set when the service manager expects
/// keep-alive pings from this process, 0 when it does not, negative errno on failure.
int observable_sd_watchdog_enabled(int unset_environment, uint64_t *_Nullable usec);

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#endif
