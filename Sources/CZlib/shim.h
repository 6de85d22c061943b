#ifndef FAULTLINE_CZLIB_SHIM_H
#define FAULTLINE_CZLIB_SHIM_H
// zlib, for inflating the raw-deflate model cache Core Data keeps in a store's
// Z_MODELCACHE. `inflateInit2` is a macro Swift cannot call; this wraps it.
#include <zlib.h>

static inline int faultline_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
#endif
