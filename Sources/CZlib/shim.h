#include <zlib.h>

/// inflateInit2 is a macro (it passes the header's version and the stream's size): a function
/// Swift can call, for raw deflate data (no zlib or gzip wrapper; 32 KiB window).
static inline int poise_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -15);
}
