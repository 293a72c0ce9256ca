/* libpoise's CPU check: runs when the library is loaded (before any poise_* call), in builds
 * for x86-64-v3. scripts/build_c_library.sh compiles this file for plain x86-64 and links it
 * into libpoise.so and libpoise.a when the Swift code targets the raised baseline. */
#include "cpu_check.h"

__attribute__((constructor)) static void poise_cpu_check_on_load(void) {
    poise_cpu_require_v3("libpoise");
}
