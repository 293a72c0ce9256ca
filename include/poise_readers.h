/*
 * poise_readers.h — the recording readers of Poise as a C library (libpoise-readers).
 *
 * Reads every recording `poise` reads (Poise's CSV and its dialects: x-io, phyphox, EuRoC,
 * Xsens, CoreMotion, BROAD, a mapped CSV; Sensor Logger and phyphox folders and zips, x-IMU3
 * sessions; ROS 1 bags; MCAP with ROS 2 messages) into the core's units, a block of samples at a
 * time. It is a library of its own so that a host that embeds only the signal-processing core
 * (libpoise, poise.h) links nothing beyond libc and libm; this one links the Swift runtime and
 * Foundation statically and the system's decompression libraries the readers use.
 *
 * Conventions: those of poise.h (status codes, `poise_error *err` last, NULL allowed), and the
 * core's units and frames for every sample:
 * - time: seconds, as the file gives it (origin kept), converted from the file's unit;
 * - acc: specific force in g, device frame (+x right, +y top edge, +z out of the screen),
 *   +1 g up at rest (files in m/s^2 are divided by 9.80665; Apple's raw sign is negated only
 *   with apple_accelerometer_sign);
 * - gyr: rad/s, right-handed about the device axes; mag: microtesla, device frame;
 * - truth: the file's reference attitude, quaternion (w, x, y, z) device -> earth;
 * - movement: the file's moving/still mask, 1 or 0.
 * A sample without a value the recording has elsewhere (a magnetometer slower than the
 * accelerometer, a row without truth) holds NaN there (`poise convert` leaves such a field
 * empty, or writes nan for truth).
 *
 * Threads: a reader is used by one thread at a time; distinct readers are independent.
 */
#ifndef POISE_READERS_H
#define POISE_READERS_H

#include "poise.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One open recording, read in order (opaque). */
typedef struct poise_reader poise_reader;

/** How to read a recording: the reading options of the `poise` commands. NULL strings and
 *  zero numbers mean "as the file says". */
typedef struct poise_read_options {
    double sample_rate;        /* Hz (1 to 100000) for a file without a time column: row n at n / rate s; 0 = none */
    const char *time_unit;     /* "s", "ms", "us" or "ns", overriding the header's unit; NULL = the header's */
    const char *delimiter;     /* "comma", "semicolon" or "tab"; NULL = detected from the header */
    int32_t decimal_comma;     /* 1 = numbers use a decimal comma, 0 = not, -1 = detected (default) */
    const char *topic;         /* ROS bag / MCAP: the IMU topic; NULL = the first one */
    const char *columns;       /* explicit column mapping (poise --columns), e.g. "t=time:ns,acc=ax,ay,az:mps2"; NULL = none */
    int32_t skip_lines;        /* lines before a CSV header to skip, 0 to 1000000 */
    const char *comment;       /* comment-line prefixes, comma-separated (poise --comment); NULL = none */
    const char *mount;         /* how the sensor is mounted (poise --mount), e.g. "x=-y,y=x,z=z"; NULL = as read */
    int32_t apple_accelerometer_sign; /* 1: the file's accelerometer reads -1 g up at rest; negate it */
    int32_t strict;            /* 1: any bad row is an error; 0 (default): repaired or left out, and reported */
} poise_read_options;

/** The defaults: every field "as the file says" (decimal_comma -1, the rest 0/NULL). */
poise_status poise_read_options_default(poise_read_options *options, poise_error *err);

/**
 * Opens `path` (a file, a session folder, or a zip of one) with `options` (NULL: defaults) and
 * reads its header. Returns NULL on failure: POISE_ERROR_INVALID_ARGUMENT for a bad option
 * (naming it), POISE_ERROR_PARSE for a file that cannot be read, with the file, line or byte
 * and what is wrong.
 */
poise_reader *poise_reader_open(const char *path, const poise_read_options *options, poise_error *err);

/** Closes the reader and frees it; NULL is ignored. */
poise_status poise_reader_destroy(poise_reader *reader, poise_error *err);

/** Which quantities a recording has (poise_reader_info.has). */
typedef enum poise_reader_has {
    POISE_HAS_TIME = 1,            /* a time column (else times are row / sample_rate) */
    POISE_HAS_ACCELERATION = 2,
    POISE_HAS_ROTATION_RATE = 4,
    POISE_HAS_MAGNETIC_FIELD = 8,
    POISE_HAS_TRUTH = 16,
    POISE_HAS_MOVEMENT = 32,
    POISE_MAGNETIC_FIELD_ARBITRARY = 64  /* the magnetometer's unit is not known to be microtesla */
} poise_reader_has;

/** What a reader knows about its recording. */
typedef struct poise_reader_info {
    uint32_t has;              /* poise_reader_has bits */
    int32_t column_count;      /* columns of the schema (poise_reader_column) */
    int64_t rows_delivered;    /* samples read so far */
    int64_t rows_dropped;      /* rows left out so far (lenient reading) */
    int64_t rows_repaired;     /* rows repaired so far (lenient reading) */
    char format[32];           /* the format's identifier, e.g. "poise", "xsens", "sensorLogger", "ROS 1 bag", "MCAP" */
    char format_name[96];      /* the format in words, e.g. "Xsens MT Manager export" */
} poise_reader_info;

poise_status poise_reader_get_info(const poise_reader *reader, poise_reader_info *out, poise_error *err);

/** One column of the recording as it was read: its name in the file, its unit there, and
 *  what it became ("time", "acceleration[0]", … "truth[3]", "movement"). */
typedef struct poise_reader_column {
    char name[128];
    char unit[32];
    char meaning[32];
} poise_reader_column;

/** Column `index` (0 <= index < column_count) of the schema. */
poise_status poise_reader_get_column(const poise_reader *reader, int32_t index, poise_reader_column *out,
                                     poise_error *err);

/**
 * Reads up to `capacity` samples into the arrays (each may be NULL: not written): times N;
 * acc, gyr, mag N x 3; truth N x 4; movement N. `*count` gets the number read (0 at the end of
 * the recording). A recording error (strict reading, or damage no repair can cover) is
 * POISE_ERROR_PARSE with where and what; the samples before it were returned by earlier calls.
 */
poise_status poise_reader_read(poise_reader *reader, size_t capacity, double *times, double *acc, double *gyr,
                               double *mag, double *truth, uint8_t *movement, size_t *count, poise_error *err);

/**
 * The problems met and repaired so far (lenient reading), one per line, as
 * "file:line:column: what [kind, action]", into `text` (`size` bytes, NUL-terminated, cut at a
 * character boundary when it does not fit); `*needed` (may be NULL) gets the bytes the whole
 * text needs with its NUL. POISE_ERROR_BUFFER_TOO_SMALL when it was cut.
 */
poise_status poise_reader_issues(const poise_reader *reader, char *text, size_t size, size_t *needed, poise_error *err);

#ifdef __cplusplus
}
#endif

#endif
