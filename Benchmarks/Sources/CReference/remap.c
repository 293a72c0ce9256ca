#include "CReference.h"

static inline void rotate(const double R[9], const double *v, double *out) {
    out[0] = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
    out[1] = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
    out[2] = R[6] * v[0] + R[7] * v[1] + R[8] * v[2];
}

void cref_remap13d(const double *input, double *output, size_t records, const double R[9], const double r[4]) {
    const double bw = r[0], bx = -r[1], by = -r[2], bz = -r[3];
    for (size_t i = 0; i < records; i++) {
        const double *in = input + 13 * i;
        double *out = output + 13 * i;
        rotate(R, in + 0, out + 0);
        rotate(R, in + 3, out + 3);
        rotate(R, in + 6, out + 6);
        const double aw = in[9], ax = in[10], ay = in[11], az = in[12];
        out[9] = aw * bw - ax * bx - ay * by - az * bz;
        out[10] = aw * bx + ax * bw + ay * bz - az * by;
        out[11] = aw * by - ax * bz + ay * bw + az * bx;
        out[12] = aw * bz + ax * by - ay * bx + az * bw;
    }
}
