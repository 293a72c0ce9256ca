/*
 * poise.h — the C API of Poise, the motion-sensor signal-processing core.
 *
 * Link with the library (`pkg-config --cflags --libs poise`, or CMake `find_package(Poise)`
 * and `Poise::poise`). The library contains the Swift runtime; a host needs nothing else.
 * It depends only on the MIT-licensed `Poise` core (no FFTW).
 *
 * Conventions (the same as the Swift core):
 * - Device frame: +x right, +y toward the top edge, +z out of the screen.
 * - Acceleration: specific force in g (standard gravity, 9.80665 m/s^2); at rest the
 *   accelerometer reads +1 g on the axis pointing up.
 * - Rotation rate: rad/s, right-handed about the device axes.
 * - Magnetic field: any unit (Poise uses microtesla), device frame.
 * - Time: seconds, any origin, non-decreasing.
 * - Quaternions: (w, x, y, z), unit length, rotating device-frame vectors into the earth frame.
 * - Buffers of vectors: N rows of 3 (or 4 for quaternions) values, row-major, contiguous
 *   ("N x 3"), so row i is buf[3*i], buf[3*i+1], buf[3*i+2].
 * - Sample rates (every `sample_rate` argument and field): Hz, between 1 and 100000 (the
 *   range `poise --rate` accepts; one definition in the core, Swift `ParameterRange.sampleRate`);
 *   a rate outside it is POISE_ERROR_INVALID_ARGUMENT naming the argument and the range.
 *
 * Errors: every function that can fail returns a poise_status (POISE_OK = 0) and takes a
 * `poise_error *err` as its last argument. `err` may be NULL; when it is not, a failing call
 * writes the code and a readable, NUL-terminated message there (a succeeding call sets
 * err->code to POISE_OK and err->message to ""). Creation functions return NULL on failure.
 * No input makes the library abort: NULL pointers, zero or wrong lengths, non-finite numbers
 * and handles of the wrong kind are reported as errors. A handle used after its destroy call is
 * reported as POISE_ERROR_INVALID_HANDLE as long as its memory has not been reused; do not rely
 * on this (set your pointer to NULL after destroy).
 *
 * Threads: a handle is used by one thread at a time (the library takes no locks); distinct
 * handles may be used in parallel from different threads. Functions without a handle
 * (configuration defaults, alignment parsing and application, metrics, version, status names)
 * are safe to call from any thread at any time. Nothing is global and mutable.
 * Every call runs on the calling thread, with one exception the caller asks for: after
 * poise_fusion_set_threads(fusion, 2, ...), poise_fusion_update_buffer with 32768 samples or
 * more, with outputs or a magnetometer, starts one second thread for the call and joins it
 * before returning; its results are bit-identical to the one-thread loop's. Output arrays that
 * overlap the input arrays keep it on the calling thread. The library never decides this from
 * the machine's load or the environment.
 *
 * Memory: the library allocates when a handle is created (and in the metric functions); the
 * per-sample and buffer calls do not allocate, except poise_fusion_update_buffer on two threads
 * (above), which allocates 2.75 MB for the call and frees it before returning. Every create has
 * a destroy.
 */
#ifndef POISE_H
#define POISE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of Poise: the one place it is written (the `poise` tool, poise_version(), the
 *  Python package, pkg-config and CMake read it from here). "MAJOR.MINOR.PATCH". */
#define POISE_VERSION "0.10.0"

/** Version of this header's API; changes when a signature, struct layout or constant changes
 *  (not when a function or constant is only added), and is the number in the shared library's
 *  SONAME (libpoise.so.POISE_API_VERSION). include/poise.abi holds the declarations it stands
 *  for (scripts/check_abi.sh). */
#define POISE_API_VERSION 5

/* ------------------------------------------------------------------------------------------ */
/* Status and errors                                                                           */

typedef enum poise_status {
    POISE_OK = 0,
    /** A required pointer argument was NULL. */
    POISE_ERROR_NULL_ARGUMENT = 1,
    /** An argument is out of range (a length, a rate, a setting); the message names it. */
    POISE_ERROR_INVALID_ARGUMENT = 2,
    /** An input sample or buffer contains NaN or infinity (nothing was processed). */
    POISE_ERROR_NON_FINITE = 3,
    /** A spec string (filter, axis alignment) could not be parsed; the message says where. */
    POISE_ERROR_PARSE = 4,
    /** The handle is NULL, of another kind, or already destroyed. */
    POISE_ERROR_INVALID_HANDLE = 5,
    /** Saved state bytes are corrupt, truncated, from another library build or another
     *  configuration. The handle keeps its previous state. */
    POISE_ERROR_STATE = 6,
    /** An output buffer is too small; the message and the size argument say how big it must be. */
    POISE_ERROR_BUFFER_TOO_SMALL = 7
} poise_status;

/** Size of poise_error.message, bytes (including the terminating NUL). */
#define POISE_ERROR_MESSAGE_SIZE 256

/** Filled by a failing call (see "Errors" above). */
typedef struct poise_error {
    int32_t code;                             /* a poise_status */
    char message[POISE_ERROR_MESSAGE_SIZE];   /* UTF-8, NUL-terminated, truncated to fit */
} poise_error;

/** Static, NUL-terminated name of a status ("POISE_OK", "POISE_ERROR_PARSE", …); never NULL. */
const char *poise_status_name(int32_t status);

/** Static, NUL-terminated version of the library, "MAJOR.MINOR.PATCH". */
const char *poise_version(void);

/** POISE_API_VERSION of the library actually loaded (compare with the header's). */
int32_t poise_api_version(void);

/* ------------------------------------------------------------------------------------------ */
/* Filters                                                                                     */

/** A 3-axis filter built from a spec string (opaque). */
typedef struct poise_filter poise_filter;

/**
 * Creates a filter from a spec (the grammar of `poise --filter` and the Swift `FilterSpec`):
 * "lowpass:cutoff=5", "highpass:cutoff=0.5", "factor:k=0.1", "butter:lowpass,order=2,cutoff=5",
 * "accelgraph:cutoff=5,adaptive", "oneeuro:mincutoff=1,beta=0.007,dcutoff=1",
 * "adaptive:cutoff=5,threshold=0.2"; cutoffs in Hz. The bare name "adaptive" uses its defaults
 * (cutoff=0.5, threshold=0.03 in the input's unit). sample_rate: Hz, 1 to 100000. The three
 * axes are filtered independently (in double precision), in the units of the input.
 * Returns NULL on failure: POISE_ERROR_PARSE with the column of the bad token for anything
 * wrong in the spec (an unknown name or parameter, a value out of range, a Butterworth cutoff
 * at or above Nyquist), POISE_ERROR_INVALID_ARGUMENT for a rate outside 1 to 100000 Hz (the
 * CLI's --rate range; "butter:lowpass,order=4,cutoff=5" at 1e12 Hz is refused, not built
 * into a filter that outputs inf/NaN). The one-pole filters
 * (lowpass, highpass, accelgraph, adaptive, oneeuro) accept any cutoff > 0, above Nyquist too.
 */
poise_filter *poise_filter_create(const char *spec, double sample_rate, poise_error *err);

/** Destroys a filter; NULL is ignored. Returns POISE_ERROR_INVALID_HANDLE for a non-filter. */
poise_status poise_filter_destroy(poise_filter *filter, poise_error *err);

/** Back to the state of a fresh filter (the next sample is the first). */
poise_status poise_filter_reset(poise_filter *filter, poise_error *err);

/**
 * Filters one sample of three values in place (xyz[0..2]), one nominal period after the
 * previous one. A non-finite value is rejected with POISE_ERROR_NON_FINITE and the filter's
 * state is unchanged.
 */
poise_status poise_filter_process(poise_filter *filter, double xyz[3], poise_error *err);

/**
 * Filters `count` samples of an N x 3 double buffer in place, in order (equal to `count`
 * poise_filter_process calls). The whole buffer is checked first: if any value is non-finite
 * nothing is processed (POISE_ERROR_NON_FINITE, message gives the row). count 0 is a no-op.
 */
poise_status poise_filter_process_buffer(poise_filter *filter, double *samples, size_t count,
                                         poise_error *err);

/** The same for an N x 3 float buffer (computed in double, rounded back to float). */
poise_status poise_filter_process_buffer_f(poise_filter *filter, float *samples, size_t count,
                                           poise_error *err);

/**
 * Filters `count` samples of an N x 3 double buffer `input` into `output` (N x 3), in order
 * (equal to `count` poise_filter_process calls); `input` is not modified. One pass over the
 * data: the fastest way to filter a buffer that must be kept. `output` may be `input` itself
 * (then this is poise_filter_process_buffer without the check first) or a buffer that does not
 * overlap it (a partial overlap is POISE_ERROR_INVALID_ARGUMENT). A non-finite value is
 * POISE_ERROR_NON_FINITE (the message gives the row): the filter's state is unchanged, and the
 * contents of `output` are unspecified. count 0 is a no-op.
 */
poise_status poise_filter_process_into(poise_filter *filter, const double *input, double *output, size_t count,
                                       poise_error *err);

/** The same for N x 3 float buffers (computed in double, rounded back to float). */
poise_status poise_filter_process_into_f(poise_filter *filter, const float *input, float *output, size_t count,
                                         poise_error *err);

/** The normalized spec of the filter (e.g. "adaptive:cutoff=5,threshold=0.2") copied into
 *  `text` (capacity bytes, NUL-terminated); POISE_ERROR_BUFFER_TOO_SMALL if it does not fit. */
poise_status poise_filter_spec(const poise_filter *filter, char *text, size_t capacity,
                               poise_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Device-motion fusion (VQF)                                                                  */

/** Earth frame of the attitude. */
typedef enum poise_earth_frame {
    POISE_EARTH_ENU = 0,   /* x east, y north, z up (default) */
    POISE_EARTH_NED = 1,   /* x north, y east, z down */
    POISE_EARTH_NWU = 2    /* x north, y west, z up */
} poise_earth_frame;

/** Heading reference; all but POISE_REFERENCE_ARBITRARY use the magnetometer (9D). */
typedef enum poise_reference {
    POISE_REFERENCE_ARBITRARY = 0,            /* 6D: heading free, starts at 0, drifts */
    POISE_REFERENCE_ARBITRARY_CORRECTED = 1,  /* 9D corrected, heading starts at 0 */
    POISE_REFERENCE_MAGNETIC_NORTH = 2,       /* 9D, north is magnetic north (default) */
    POISE_REFERENCE_TRUE_NORTH = 3            /* 9D, north corrected by `declination` */
} poise_reference;

/** Bits of poise_motion.flags. */
enum {
    POISE_FLAG_AT_REST = 1 << 0,               /* at rest: bias learned from the rotation rate */
    /* field differs from the reference; also set from the start until a first reference is
     * accepted (magnetic_new_first_field_time of steady readings while turning faster than
     * magnetic_new_field_minimum_rate). While set, after the first samples' fast initial
     * convergence, the heading is not corrected (for up to magnetic_maximum_rejection_time,
     * then at the gain divided by magnetic_rejection_factor): a device that never turns that
     * fast keeps its initial heading plus the gyroscope's drift for that long. */
    POISE_FLAG_MAGNETIC_DISTURBANCE = 1 << 1,
    POISE_FLAG_ACCELERATION_REJECTED = 1 << 2, /* |acc| too far from 1 g for the correction */
    POISE_FLAG_TIME_GAP = 1 << 3,              /* step longer than maximum_time_step */
    POISE_FLAG_INVALID_INPUT = 1 << 4,         /* a non-finite input was skipped */
    POISE_FLAG_TIME_NOT_INCREASING = 1 << 5    /* time repeated or went back: rotation not integrated */
    /* Bit 1 << 6: the rotation rate repeats the last sample's on every axis (a held reading).
     * Bit 1 << 7: a gyroscope axis sits at a clipped plateau (saturated). As
     * DeviceMotion.Flags.heldSample and .gyroscopeSaturated (docs/fusion.md, Flags). */
};

/**
 * Settings of the fusion, the fields and defaults of the Swift `DeviceMotionConfiguration`
 * (fill with poise_fusion_config_default, then change fields). Booleans are 0 or 1. Every value
 * must be finite; sample_rate 1 to 100000 Hz; times and time constants (fields in s) > 0
 * (rest_minimum_time and the magnetic times >= 0) and at most 1e7 s; sigmas, thresholds and
 * clip > 0; poise_fusion_create names the first field that is not.
 */
typedef struct poise_fusion_config {
    double sample_rate;                   /* nominal rate, Hz (1 to 100000); default 100 */
    int32_t earth_frame;                  /* poise_earth_frame; default POISE_EARTH_ENU */
    int32_t reference;                    /* poise_reference; default MAGNETIC_NORTH (9D) */
    double declination;                   /* degrees, east positive (TRUE_NORTH); default 0 */
    double accelerometer_time_constant;   /* inclination correction, s; default 3 */
    double magnetometer_time_constant;    /* heading correction, s; default 9 */
    int32_t motion_bias_estimation;       /* default 1 */
    int32_t rest_bias_estimation;         /* default 1 */
    int32_t magnetic_disturbance_rejection; /* default 1 */
    double bias_sigma_initial;            /* deg/s; default 0.5 */
    double bias_forgetting_time;          /* s; default 100 */
    double bias_clip;                     /* deg/s; default 2 */
    double bias_sigma_motion;             /* deg/s; default 0.1 */
    double bias_vertical_forgetting_factor; /* default 1e-4 */
    double bias_sigma_rest;               /* deg/s; default 0.01 (VQF: 0.03) */
    double rest_minimum_time;             /* s; default 1.0 (VQF: 1.5) */
    double rest_filter_time_constant;     /* s; default 0.5 */
    double rest_gyroscope_threshold;      /* deg/s; default 2 */
    double rest_accelerometer_threshold;  /* g; default 0.5/9.80665 */
    double magnetic_current_time_constant;   /* s; default 0.05 */
    double magnetic_reference_time_constant; /* s; default 20 */
    double magnetic_norm_threshold;       /* relative; default 0.1 */
    double magnetic_dip_threshold;        /* degrees; default 10 */
    double magnetic_new_field_time;       /* s; default 20 */
    double magnetic_new_first_field_time; /* s; default 5 */
    double magnetic_new_field_minimum_rate; /* deg/s; default 20 */
    double magnetic_minimum_undisturbed_time; /* s; default 0.5 */
    double magnetic_maximum_rejection_time;   /* s; default 60 */
    double magnetic_rejection_factor;     /* default 2 */
    int32_t skip_held_magnetometer_samples; /* default 0 */
    double acceleration_rejection_threshold; /* g from 1 g, 0 = off; default 0 */
    double maximum_time_step;             /* s; default 0.1 */
    double correction_rate;               /* Hz, 0 = every sample (VQF); default 10 */
    int32_t magnetic_offset_estimation;   /* hard iron moving with the device; default 1 (VQF: 0) */
    double magnetic_offset_time_constant; /* s, its sphere fit's weighting; default 5 */
    double magnetic_offset_minimum_coverage; /* relative spread of the fitted readings; default 0.2 */
    double magnetic_offset_maximum_residual; /* relative misfit to the sphere; default 0.02 */
    double magnetic_direction_threshold;  /* degrees, field-direction test, 0 = off; default 4 (VQF: 0) */
    double magnetic_direction_time_constant; /* s, its low-pass; default 2 */
    double magnetic_direction_gain_factor; /* heading gain fraction when it fails; default 0.25 */
    double output_prediction;             /* s, attitude outputs carried ahead with the rate (sensor delay); default 0 (as VQF) */
    int32_t fixed_time_step;              /* 1: every sample integrates 1/sample_rate whatever its timestamp (VQF's Ts); default 0 (VQF: 1).
                                           * 1 also sets the hold-off after a saturated gyroscope sample to 0 (VQF has none), 0
                                           * keeps its 9 s; poise_fusion_set_saturation_bias_hold_off chooses it on a handle */
} poise_fusion_config;

/** Poise's defaults (as DeviceMotionConfiguration()) at `sample_rate` Hz. */
poise_status poise_fusion_config_default(poise_fusion_config *config, double sample_rate,
                                         poise_error *err);

/** VQF's published defaults (DeviceMotionConfiguration.vqfDefaults): bias_sigma_rest 0.03,
 *  rest_minimum_time 1.5, correction_rate 0, magnetic_offset_estimation 0, magnetic_direction_threshold 0, output_prediction 0, fixed_time_step 1; `reference` a poise_reference. With
 *  these, the outputs equal the reference VQF implementation's to rounding, on any timestamps. */
poise_status poise_fusion_config_vqf(poise_fusion_config *config, double sample_rate,
                                     int32_t reference, poise_error *err);

/** The speed preset (DeviceMotionConfiguration.fast): corrections at 5 Hz (the defaults: 10 Hz),
 *  bias_sigma_rest 0.01, rest_minimum_time 1.0, with the magnetometer offset estimation, whatever
 *  the defaults become; `reference` a poise_reference. Its accuracy and cost on BROAD are in
 *  docs/fusion.md. */
poise_status poise_fusion_config_fast(poise_fusion_config *config, double sample_rate,
                                      int32_t reference, poise_error *err);

/** The fusion estimator (opaque). */
typedef struct poise_fusion poise_fusion;

/** Creates an estimator in its initial state; NULL and POISE_ERROR_INVALID_ARGUMENT naming
 *  the field when a setting is out of range or not finite. */
poise_fusion *poise_fusion_create(const poise_fusion_config *config, poise_error *err);

/** Destroys an estimator; NULL is ignored. */
poise_status poise_fusion_destroy(poise_fusion *fusion, poise_error *err);

/** Back to the initial state (as a fresh estimator with the same configuration). */
poise_status poise_fusion_reset(poise_fusion *fusion, poise_error *err);

/** The estimator's configuration, copied into `config`. */
poise_status poise_fusion_get_config(const poise_fusion *fusion, poise_fusion_config *config,
                                     poise_error *err);

/** The device motion after a sample. */
typedef struct poise_motion {
    double time;                /* s */
    double attitude[4];         /* w, x, y, z: device -> earth frame of the configuration */
    double gravity[3];          /* direction of up in the device frame, unit length (g) */
    double user_acceleration[3];/* g, device frame: specific force minus gravity */
    double rotation_rate[3];    /* rad/s, device frame, bias removed */
    double bias[3];             /* estimated gyroscope bias, rad/s, device frame */
    double heading;             /* degrees in [0, 360), clockwise from north; NaN for 6D */
    uint32_t flags;             /* POISE_FLAG_* bits */
} poise_motion;

/**
 * Updates with one sample. time: s; acc: g (specific force), device frame; gyr: rad/s, device
 * frame; mag: device frame (any unit) or NULL when there is no magnetometer sample (ignored by
 * the 6D reference). acc and gyr must not be NULL. Non-finite inputs are not errors: they are
 * skipped and flagged POISE_FLAG_INVALID_INPUT, and the state never becomes NaN. An all-zero
 * acc or mag means "no sample". The rotation is integrated over the step from the previous
 * sample's time: a repeated or earlier time integrates none (flagged
 * POISE_FLAG_TIME_NOT_INCREASING; acc and mag are still used), a step longer than
 * maximum_time_step is integrated as maximum_time_step and flagged POISE_FLAG_TIME_GAP.
 * `out` may be NULL (the cheapest call); otherwise it receives the motion after the sample.
 */
poise_status poise_fusion_update(poise_fusion *fusion, double time, const double acc[3],
                                 const double gyr[3], const double mag[3], poise_motion *out,
                                 poise_error *err);

/** The motion after the last sample (the initial motion before any). */
poise_status poise_fusion_get_motion(const poise_fusion *fusion, poise_motion *out,
                                     poise_error *err);

/** Where poise_fusion_update_buffer writes; each pointer may be NULL (not written). */
typedef struct poise_fusion_outputs {
    double *attitude;            /* N x 4 (w, x, y, z) */
    double *gravity;             /* N x 3 */
    double *user_acceleration;   /* N x 3 */
    double *rotation_rate;       /* N x 3 */
    double *bias;                /* N x 3 */
    double *heading;             /* N (degrees; NaN for 6D) */
    uint32_t *flags;             /* N */
} poise_fusion_outputs;

/**
 * Updates with `count` samples in order, equal to `count` poise_fusion_update calls.
 * times: N seconds; acc, gyr: N x 3 (units as in poise_fusion_update); mag: N x 3 or NULL.
 * times, acc and gyr must not be NULL unless count is 0. outputs may be NULL. From 32768
 * samples on it uses a second thread for the call when poise_fusion_set_threads chose 2 (see
 * Threads above), with the same results; otherwise it runs on the calling thread only.
 */
poise_status poise_fusion_update_buffer(poise_fusion *fusion, size_t count, const double *times,
                                        const double *acc, const double *gyr, const double *mag,
                                        const poise_fusion_outputs *outputs, poise_error *err);

/**
 * The threads poise_fusion_update_buffer may use on this handle: 1 (the default: the calling
 * thread only) or 2 (a second thread for a buffer of 32768 samples or more, see Threads above;
 * the same results bit for bit). Any other number is POISE_ERROR_INVALID_ARGUMENT and leaves
 * the choice unchanged. poise_fusion_reset keeps it.
 */
poise_status poise_fusion_set_threads(poise_fusion *fusion, int32_t threads, poise_error *err);

/** The threads chosen with poise_fusion_set_threads (1 unless set). */
poise_status poise_fusion_get_threads(const poise_fusion *fusion, int32_t *threads, poise_error *err);

/**
 * The hold-off after a saturated gyroscope sample (POISE_FLAG bit 1 << 7), seconds, finite, 0
 * to 1e7 (Swift DeviceMotionConfiguration.saturationBiasHoldOff; docs/fusion.md): for this long
 * after a clipped rotation rate there is no in-motion bias measurement and no field-direction
 * test (magnetic_direction_threshold), and the clip restarts the inclination low-pass; 0 = off
 * (a clip then changes nothing, as in VQF). Not a field of poise_fusion_config (that would change
 * its layout): poise_fusion_create takes 0 with fixed_time_step 1 and 9 s with 0, and this call
 * sets it on the handle. Setting it puts the estimator back in its initial state (as
 * poise_fusion_reset, which then keeps the setting), so call it before the first sample.
 * Out of range or not finite: POISE_ERROR_INVALID_ARGUMENT and the handle unchanged.
 * poise_fusion_get_config cannot report it (poise_fusion_get_saturation_bias_hold_off does), and
 * saved state records it (restoring into a handle with another hold-off is POISE_ERROR_STATE).
 */
poise_status poise_fusion_set_saturation_bias_hold_off(poise_fusion *fusion, double seconds, poise_error *err);

/** The hold-off after a saturated gyroscope sample on this handle, seconds (0 = off). */
poise_status poise_fusion_get_saturation_bias_hold_off(const poise_fusion *fusion, double *seconds,
                                                       poise_error *err);

/** The offline smoother's settings (Swift DeviceMotionSmoother.defaultConfiguration): Poise's
 *  defaults with magnetometer_time_constant 20 s and magnetic_direction_threshold 0 (no
 *  field-direction test); `reference` a poise_reference. */
poise_status poise_fusion_config_offline(poise_fusion_config *config, double sample_rate,
                                         int32_t reference, poise_error *err);

/**
 * The offline smoother (Swift DeviceMotionSmoother, default options) over a whole recording of
 * `count` samples in time order: writes the same outputs as poise_fusion_update_buffer, each
 * sample's from the samples before and after it (the gyroscope's scale and axis errors fitted to
 * the recording first, then forward and backward passes of the estimator with `config`, then a
 * zero-phase inclination; see docs/fusion.md). The rotation rate written is the corrected one less the bias. Inputs, units and frames as poise_fusion_update_buffer;
 * times, acc and gyr must not be NULL unless count is 0; mag NULL for 6D. Allocates 240 bytes per
 * sample while it runs (freed before it returns). POISE_ERROR_INVALID_ARGUMENT naming the field
 * when a setting is out of range. The hold-off after a saturated gyroscope sample is 0 with
 * fixed_time_step 1 and 9 s otherwise (poise_fusion_create's rule; poise_fusion_smooth_with
 * takes another). With poise_fusion_config_vqf's settings this is still the
 * smoother, not VQF's offlineVQF (Swift OfflineVQF, `poise fuse --preset vqf --offline`).
 */
poise_status poise_fusion_smooth(const poise_fusion_config *config, size_t count, const double *times,
                                 const double *acc, const double *gyr, const double *mag,
                                 const poise_fusion_outputs *outputs, poise_error *err);

/**
 * poise_fusion_smooth with every setting of the estimator `fusion`: its configuration and the
 * settings only a handle holds (poise_fusion_set_saturation_bias_hold_off). The estimator's state
 * is neither read nor changed. Arguments and outputs as poise_fusion_smooth.
 */
poise_status poise_fusion_smooth_with(const poise_fusion *fusion, size_t count, const double *times,
                                      const double *acc, const double *gyr, const double *mag,
                                      const poise_fusion_outputs *outputs, poise_error *err);

/** Bytes poise_fusion_save_state writes (the same for every estimator of this library build). */
size_t poise_fusion_state_size(void);

/**
 * Saves the complete state as bytes (with a header and checksum) into `buffer` of `capacity`
 * bytes; `*written` (may be NULL) receives the size. POISE_ERROR_BUFFER_TOO_SMALL if capacity
 * is below poise_fusion_state_size(). The bytes are for the same library build and the same
 * configuration (they embed it); they are not a portable file format.
 */
poise_status poise_fusion_save_state(const poise_fusion *fusion, void *buffer, size_t capacity,
                                     size_t *written, poise_error *err);

/** Restores a state saved by poise_fusion_save_state: the next update continues exactly as
 *  the saved estimator would. POISE_ERROR_STATE (state unchanged) when the bytes are corrupt,
 *  of another size or build, or were saved with another configuration. */
poise_status poise_fusion_restore_state(poise_fusion *fusion, const void *buffer, size_t size,
                                        poise_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Tilt controller and home calibration                                                       */

/** Settings of the tilt controller (Swift TiltSettings); fill with poise_tilt_settings_default. */
typedef struct poise_tilt_settings {
    double gravity_time_constant;   /* s; low-pass of the accelerometer (raw path), 0 = none; default 0.1 */
    int32_t dynamic_recalibration;  /* re-home when resting far from home; default 0 */
    double recalibration_angle;     /* degrees, (0, 180]; default 30 */
    double stillness_rate;          /* degrees/s; default 10 */
    double stillness_angle;         /* degrees; default 5 */
    double hold_time;               /* s; default 2 */
    double dead_zone;               /* degrees; angles at or below give 0; default 3 */
    double saturation;              /* degrees; angles at or above give +-1; default 30 */
    double curve_exponent;          /* response t^p between them: 1 linear (default), 2 quadratic */
} poise_tilt_settings;

/** Home events (poise_tilt_output.event). */
enum {
    POISE_HOME_NONE = 0,       /* home unchanged */
    POISE_HOME_INITIAL = 1,    /* first sample after create or reset became home */
    POISE_HOME_REQUESTED = 2,  /* poise_tilt_recalibrate was called */
    POISE_HOME_DYNAMIC = 3     /* dynamic recalibration */
};

/** One output of the tilt controller. */
typedef struct poise_tilt_output {
    double time;     /* s */
    double stick_x;  /* [-1, 1], from roll: positive when the right edge dips away */
    double stick_y;  /* [-1, 1], from -pitch: positive when the top edge dips away (stick forward) */
    double pitch;    /* rad, tilt from home about the device x axis (top edge toward +z positive) */
    double roll;     /* rad, tilt from home about the device y axis */
    int32_t event;   /* POISE_HOME_* */
} poise_tilt_output;

/** The defaults listed in poise_tilt_settings. */
poise_status poise_tilt_settings_default(poise_tilt_settings *settings, poise_error *err);

typedef struct poise_tilt poise_tilt;

/** Creates a tilt controller; NULL and POISE_ERROR_INVALID_ARGUMENT naming the bad setting. */
poise_tilt *poise_tilt_create(const poise_tilt_settings *settings, poise_error *err);

/** Destroys a tilt controller; NULL is ignored. */
poise_status poise_tilt_destroy(poise_tilt *tilt, poise_error *err);

/** Forgets home and gravity (the next sample becomes home). */
poise_status poise_tilt_reset(poise_tilt *tilt, poise_error *err);

/** Makes the next sample home. */
poise_status poise_tilt_recalibrate(poise_tilt *tilt, poise_error *err);

/**
 * Raw path: gravity is the low-passed accelerometer. time: s; acc: g, in the frame the player
 * sees (remap first); gyr: rad/s for the stillness test of dynamic recalibration, or NULL.
 * A non-finite time or acc leaves the gravity estimate unchanged (not an error).
 */
poise_status poise_tilt_process_sample(poise_tilt *tilt, double time, const double acc[3],
                                       const double gyr[3], poise_tilt_output *out,
                                       poise_error *err);

/** Fused path: attitude (w, x, y, z; device -> any z-up earth frame) from poise_fusion;
 *  gyr rad/s or NULL. A non-finite attitude or time is POISE_ERROR_NON_FINITE. */
poise_status poise_tilt_process_attitude(poise_tilt *tilt, double time, const double attitude[4],
                                         const double gyr[3], poise_tilt_output *out,
                                         poise_error *err);

/** The home attitude (w, x, y, z) into `home`; `*has_home` 0 before the first sample. */
poise_status poise_tilt_get_home(const poise_tilt *tilt, double home[4], int32_t *has_home,
                                 poise_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Axis remapping                                                                              */

/** A signed permutation of the axes: new[i] = sign[i] * sensor[axis[i]]. */
typedef struct poise_alignment {
    int32_t axis[3];   /* 0 = x, 1 = y, 2 = z */
    int32_t sign[3];   /* +1 or -1 */
} poise_alignment;

/**
 * Parses "+A+B+C" notation (x-io Fusion's): "+Y-X+Z" means new x = +sensor y,
 * new y = -sensor x, new z = +sensor z. Reflections (determinant -1) are rejected unless
 * allow_reflection is nonzero. POISE_ERROR_PARSE with the position on a bad string.
 */
poise_status poise_alignment_parse(const char *text, int32_t allow_reflection,
                                   poise_alignment *alignment, poise_error *err);

/** Remaps an N x 3 double buffer of vectors (acceleration, rotation rate, field) in place. */
poise_status poise_alignment_apply(const poise_alignment *alignment, double *vectors,
                                   size_t count, poise_error *err);

/** The same for floats. */
poise_status poise_alignment_apply_f(const poise_alignment *alignment, float *vectors,
                                     size_t count, poise_error *err);

/** Remaps an N x 4 buffer of attitudes (w, x, y, z; device -> earth) in place so that they
 *  describe the remapped body frame: q' = q * r^-1 with r the alignment's rotation (proper
 *  alignments only, else POISE_ERROR_INVALID_ARGUMENT). */
poise_status poise_alignment_apply_attitudes(const poise_alignment *alignment, double *attitudes,
                                             size_t count, poise_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Calibration                                                                                 */

/**
 * A sensor calibration made by `poise calibrate` (JSON schema: docs/calibration.md). For each
 * sensor it covers, calibrated = matrix * (raw - offset): the magnetometer's hard-iron offset
 * and soft-iron matrix (microtesla, or the recording's arbitrary unit), the gyroscope's bias
 * (rad/s, identity matrix), the accelerometer's offset and scale matrix (g). Immutable once
 * loaded; a handle may be shared between threads.
 */
typedef struct poise_calibration poise_calibration;

/** The sensors of a calibration. */
typedef enum poise_sensor {
    POISE_SENSOR_ACCELEROMETER = 0,
    POISE_SENSOR_GYROSCOPE = 1,
    POISE_SENSOR_MAGNETOMETER = 2
} poise_sensor;

/**
 * Loads a calibration from `source`: a JSON document when its first non-blank character is
 * '{', else the path of a calibration file. NULL with POISE_ERROR_PARSE (the message gives the
 * line, column and byte of a syntax error, or the member that is wrong) or
 * POISE_ERROR_INVALID_ARGUMENT (a file that cannot be read).
 */
poise_calibration *poise_calibration_load(const char *source, poise_error *err);

/** Frees a calibration; NULL is ignored. */
poise_status poise_calibration_destroy(poise_calibration *calibration, poise_error *err);

/**
 * Whether the calibration covers `sensor` (*present = 1 or 0), and if so its offset (3 values)
 * and row-major matrix (9 values); either output may be NULL.
 */
poise_status poise_calibration_get(const poise_calibration *calibration, int32_t sensor, int32_t *present,
                                   double *offset, double *matrix, poise_error *err);

/**
 * Calibrates N x 3 buffers in place: acceleration (g), rotation rate (rad/s), magnetic field.
 * Pass NULL for a sensor you do not have; a sensor the calibration does not cover is left as
 * it is. Non-finite input: POISE_ERROR_NON_FINITE and nothing is changed.
 */
poise_status poise_calibration_apply(const poise_calibration *calibration, double *acceleration,
                                     double *rotation_rate, double *magnetic_field, size_t count,
                                     poise_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Metrics                                                                                     */

/** Standard steps for latency (in g, device frame). */
typedef enum poise_step {
    POISE_STEP_TILT = 0,   /* (0, 0, 1) -> (0, 1, 0): gravity turns by 90 degrees */
    POISE_STEP_SHAKE = 1   /* (0, 0, 1) -> (0, 0, 1.5): the magnitude jumps */
} poise_step;

/**
 * The rate Poise's commands set a recording up for (`nominalSampleRate` in Swift,
 * docs/conventions.md "The recording's rate"): 1 / the median positive interval of the first
 * POISE_NOMINAL_RATE_ROWS of `times` (seconds, in row order; repeated, decreasing and
 * non-finite steps are left out), in Hz, into *rate. POISE_ERROR_INVALID_ARGUMENT when those rows
 * have no increasing pair of finite times (*rate is then left unchanged).
 */
#define POISE_NOMINAL_RATE_ROWS 2048
poise_status poise_nominal_rate(const double *times, size_t count, double *rate, poise_error *err);

/**
 * Latency to 90 % of a standard step for a fresh filter from `spec` at `sample_rate` Hz: the
 * filter settles on the "before" value, then gets the "after" value; the result is the first
 * sample (1 = the step sample) whose output has covered 90 % of the step.
 * `*milliseconds` = samples / rate * 1000 and `*samples` (either may be NULL); when 90 % is
 * not reached within max(1000, 60 s) samples, *milliseconds is NaN and *samples is -1.
 */
poise_status poise_latency90(const char *spec, double sample_rate, int32_t step,
                             double *milliseconds, int64_t *samples, poise_error *err);

/** Result of poise_jitter. */
typedef struct poise_jitter_result {
    double jitter;          /* RMS of |y - moving mean of y| over still samples, input unit */
    double raw_jitter;      /* the same for the input */
    double attenuation;     /* raw_jitter / jitter; NaN when jitter is 0 */
    double still_seconds;   /* total duration of the segments, s */
    int64_t evaluated_samples; /* samples whose centred window lies inside a segment */
    int64_t segment_count;
} poise_jitter_result;

/**
 * Jitter of a filter's output over still segments. output, input: N x 3; times: N seconds
 * (finite, and non-decreasing within a segment, else POISE_ERROR_INVALID_ARGUMENT); segments: segment_count pairs [start, end) of row
 * indices (0 <= start <= end <= N), or NULL with segment_count 0 for the whole buffer as one
 * segment; window: moving-average length, s (> 0). Samples closer than window/2 to a segment
 * end are not evaluated.
 */
poise_status poise_jitter(const double *output, const double *input, const double *times,
                          size_t count, const int64_t *segments, size_t segment_count,
                          double window, poise_jitter_result *result, poise_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Gyro aiming                                                                                 */
/*
 * The gyroscope turns a game camera (docs/games.md): per sample, bias calibration, the aiming
 * space, tiered smoothing, sensitivity (with an optional acceleration curve) and integration
 * over the sample's own time step; per frame, poise_gyro_take_frame returns the turn since the
 * previous frame. Camera angles in degrees: yaw positive = turn right, pitch positive = look up.
 * Bad input (NaN, time not increasing, gaps, saturation) turns the camera by a bounded amount or
 * not at all and is flagged (POISE_GYRO_FLAG_*); it is not an error.
 */

/** Aiming spaces (poise_gyro_settings.space). */
enum {
    POISE_GYRO_LOCAL = 0,    /* yaw about a fixed device axis (hold), pitch about +x */
    POISE_GYRO_PLAYER = 1,   /* yaw about gravity however the device is held, pitch about +x */
    POISE_GYRO_WORLD = 2     /* yaw about gravity, pitch about the horizontal part of +x */
};

/** Local space's yaw axis (poise_gyro_settings.hold). */
enum {
    POISE_GYRO_HOLD_FLAT = 0,     /* gamepad, phone screen up: yaw about +z */
    POISE_GYRO_HOLD_UPRIGHT = 1   /* phone held up, screen toward the player: yaw about +y */
};

/** Flags of a sample or frame (bits). */
enum {
    POISE_GYRO_FLAG_INVALID = 1,               /* time or rate not finite: turned nothing */
    POISE_GYRO_FLAG_TIME_NOT_INCREASING = 2,   /* repeated or backwards time: turned nothing */
    POISE_GYRO_FLAG_GAP = 4,                   /* step > maximum_time_step: integrated over that */
    POISE_GYRO_FLAG_SATURATED = 8,             /* an axis at >= 99.5 % of gyroscope_range */
    POISE_GYRO_FLAG_LIMITED = 16,              /* turn speed scaled down to maximum_speed */
    POISE_GYRO_FLAG_NO_GRAVITY = 32,           /* player/world without accelerometer: local used */
    POISE_GYRO_FLAG_CALIBRATING = 64           /* the bias was updated from a still block */
};

/** Gyro-aiming settings; poise_gyro_settings_default fills the defaults given here. */
typedef struct poise_gyro_settings {
    int32_t space;                    /* POISE_GYRO_LOCAL/PLAYER/WORLD; default PLAYER */
    int32_t hold;                     /* POISE_GYRO_HOLD_*; default FLAT */
    double sensitivity;               /* camera degrees per device degree; default 1 */
    double high_sensitivity;          /* at or above high_speed; default 1 (= no acceleration) */
    double low_speed;                 /* degrees/s where acceleration starts; default 0 */
    double high_speed;                /* degrees/s where it reaches high_sensitivity; default 0 */
    double pitch_ratio;               /* pitch sensitivity / yaw sensitivity; default 1 */
    int32_t invert_pitch;             /* 0 or 1; default 0 */
    double smoothing_threshold;       /* degrees/s; tiered smoothing, 0 = off; default 5 */
    double smoothing_time_constant;   /* s; default 0.0625 */
    int32_t continuous_calibration;   /* learn the bias while still, 0 or 1; default 1 */
    double sample_rate;               /* Hz, nominal (gravity estimator), 1 to 100000; default 100 */
    double maximum_time_step;         /* s; longer steps integrated over this; default 0.05 */
    double gyroscope_range;           /* degrees/s full scale (saturation flag); default 2000 */
    double maximum_speed;             /* degrees/s; faster turns scaled down; default 2000 */
    double counts_per_degree;         /* mouse counts per camera degree; default 1 */
} poise_gyro_settings;

/** What one sample did. */
typedef struct poise_gyro_output {
    double time;     /* s */
    double yaw;      /* camera degrees this sample, positive = right */
    double pitch;    /* camera degrees this sample, positive = up */
    uint32_t flags;  /* POISE_GYRO_FLAG_* */
} poise_gyro_output;

/** The camera turn of one frame (the samples since the previous poise_gyro_take_frame). */
typedef struct poise_gyro_frame {
    double yaw;         /* degrees, positive = right */
    double pitch;       /* degrees, positive = up */
    int64_t counts_x;   /* whole mouse counts, right positive (remainder carried) */
    int64_t counts_y;   /* whole mouse counts, down positive */
    int64_t samples;    /* samples in the frame */
    uint32_t flags;     /* union of the samples' POISE_GYRO_FLAG_* */
} poise_gyro_frame;

/** The saved calibration (poise_gyro_get_calibration / poise_gyro_set_calibration). */
typedef struct poise_gyro_calibration {
    double bias[3];       /* rad/s, device frame */
    double uncertainty;   /* rad/s, standard uncertainty when it was set */
    double time;          /* s, sample time when it was set */
    int32_t calibrated;   /* 0: bias is zero, never calibrated */
} poise_gyro_calibration;

/** The defaults listed in poise_gyro_settings. */
poise_status poise_gyro_settings_default(poise_gyro_settings *settings, poise_error *err);

typedef struct poise_gyro poise_gyro;

/** Creates a gyro aimer; NULL and POISE_ERROR_INVALID_ARGUMENT naming the bad setting. */
poise_gyro *poise_gyro_create(const poise_gyro_settings *settings, poise_error *err);

/** Destroys a gyro aimer; NULL is ignored. */
poise_status poise_gyro_destroy(poise_gyro *gyro, poise_error *err);

/** Forgets everything, calibration included (as freshly created). */
poise_status poise_gyro_reset(poise_gyro *gyro, poise_error *err);

/**
 * One sensor sample. time: s; gyr: rad/s, device frame (required); acc: g, device frame, or
 * NULL without an accelerometer; gravity: the up direction from elsewhere (e.g. poise_fusion),
 * any length, or NULL to use the built-in 6D fusion. out may be NULL.
 */
poise_status poise_gyro_process(poise_gyro *gyro, double time, const double gyr[3], const double acc[3],
                                const double gravity[3], poise_gyro_output *out, poise_error *err);

/** The camera turn since the previous call (call once per rendered frame). */
poise_status poise_gyro_take_frame(poise_gyro *gyro, poise_gyro_frame *frame, poise_error *err);

/** Manual calibration: average every sample from begin to end as the bias (device still). */
poise_status poise_gyro_calibration_begin(poise_gyro *gyro, poise_error *err);
/** Ends it; `*set` (may be NULL) is 1 when samples arrived and the bias was set. */
poise_status poise_gyro_calibration_end(poise_gyro *gyro, double time, int32_t *set, poise_error *err);

/** The calibration state, to save. */
poise_status poise_gyro_get_calibration(const poise_gyro *gyro, poise_gyro_calibration *calibration,
                                        poise_error *err);
/** Restores a saved state (non-finite values: POISE_ERROR_NON_FINITE). */
poise_status poise_gyro_set_calibration(poise_gyro *gyro, const poise_gyro_calibration *calibration,
                                        poise_error *err);

/** Flick-stick settings; poise_flick_settings_default fills the defaults given here. */
typedef struct poise_flick_settings {
    double threshold;                         /* deflection 0..1 that starts a flick; default 0.9 */
    double release_threshold;                 /* deflection below which the stick is released; default 0.8 */
    double flick_time;                        /* s to face the flicked direction; default 0.1 */
    double rotation_smoothing_threshold;      /* degrees/s of stick rotation; default 360 */
    double rotation_smoothing_time_constant;  /* s; default 0.03 */
} poise_flick_settings;

/** The defaults listed in poise_flick_settings. */
poise_status poise_flick_settings_default(poise_flick_settings *settings, poise_error *err);

typedef struct poise_flick poise_flick;

/** Creates a flick stick; NULL and POISE_ERROR_INVALID_ARGUMENT naming the bad setting. */
poise_flick *poise_flick_create(const poise_flick_settings *settings, poise_error *err);

/** Destroys a flick stick; NULL is ignored. */
poise_status poise_flick_destroy(poise_flick *flick, poise_error *err);

/** Stick centred, no flick in progress. */
poise_status poise_flick_reset(poise_flick *flick, poise_error *err);

/**
 * One game frame: stick x (right) and y (forward) in -1..1, dt the frame's duration in s;
 * `*yaw` gets the camera yaw turn in degrees (positive = right). A non-finite stick or dt turns
 * nothing (not an error).
 */
poise_status poise_flick_update(poise_flick *flick, double stick_x, double stick_y, double dt, double *yaw,
                                poise_error *err);

#ifdef __cplusplus
}
#endif

#endif /* POISE_H */
