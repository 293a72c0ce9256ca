/*
 * A game loop on Poise's C API: a recording (t, accelerometer, gyroscope, magnetometer) stands
 * in for the phone's sensors; 6D fusion runs on every sensor sample, and every 1/60 s frame
 * turns the latest attitude into a thumbstick through the tilt controller (home = the first
 * pose). Alongside, gyro aiming turns a camera with the device (player space, with the fusion's
 * gravity; each frame takes the turn of the samples since the previous one), and a flick stick
 * pushed fully right at 10 s turns it 90 degrees more. Prints one line per second of game time
 * and a summary; exits 1 if a call fails, the stick never moves or the flick does not turn 90.
 *
 *   cc game_loop.c $(pkg-config --cflags --libs poise) -o game_loop
 *   ./game_loop data/phone-tilt-steer-100hz.csv
 */
#include <poise.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEGREES_PER_RADIAN 57.29577951308232

#define CHECK(call)                                                                          \
    do {                                                                                     \
        if ((call) != POISE_OK) {                                                            \
            fprintf(stderr, "%s failed: %s (%s)\n", #call, error.message,                    \
                    poise_status_name(error.code));                                          \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

/* Reads "t,ax,ay,az,gx,gy,gz,..." rows after the header. */
static int read_row(FILE *file, double *t, double acc[3], double gyr[3]) {
    char line[1024];
    if (!fgets(line, sizeof line, file)) return 0;
    char *p = line;
    double *targets[7] = {t, &acc[0], &acc[1], &acc[2], &gyr[0], &gyr[1], &gyr[2]};
    for (int i = 0; i < 7; i++) {
        char *end;
        *targets[i] = strtod(p, &end);
        if (end == p) return -1;
        p = (*end == ',') ? end + 1 : end;
    }
    return 1;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "data/phone-tilt-steer-100hz.csv";
    FILE *file = fopen(path, "r");
    if (!file) { perror(path); return 1; }
    char header[1024];
    if (!fgets(header, sizeof header, file)) { fprintf(stderr, "%s: empty\n", path); return 1; }

    poise_error error;
    poise_fusion_config config;
    CHECK(poise_fusion_config_default(&config, 100.0, &error));
    config.reference = POISE_REFERENCE_ARBITRARY;   /* 6D: a game needs no compass */
    poise_fusion *fusion = poise_fusion_create(&config, &error);
    if (!fusion) { fprintf(stderr, "fusion: %s\n", error.message); return 1; }

    poise_tilt_settings settings;
    CHECK(poise_tilt_settings_default(&settings, &error));
    settings.dead_zone = 5;      /* degrees */
    settings.saturation = 40;    /* degrees */
    poise_tilt *tilt = poise_tilt_create(&settings, &error);
    if (!tilt) { fprintf(stderr, "tilt: %s\n", error.message); return 1; }

    poise_gyro_settings aim_settings;
    CHECK(poise_gyro_settings_default(&aim_settings, &error));   /* player space, 1:1, tiered smoothing */
    poise_gyro *aim = poise_gyro_create(&aim_settings, &error);
    if (!aim) { fprintf(stderr, "gyro: %s\n", error.message); return 1; }
    poise_flick_settings flick_settings;
    CHECK(poise_flick_settings_default(&flick_settings, &error));
    poise_flick *flick = poise_flick_create(&flick_settings, &error);
    if (!flick) { fprintf(stderr, "flick: %s\n", error.message); return 1; }
    double camera_yaw = 0, camera_pitch = 0, flick_yaw = 0, start = -1;

    const double frame_period = 1.0 / 60.0;
    double next_frame = -1, t, acc[3], gyr[3];
    double min_x = 0, max_x = 0, min_y = 0, max_y = 0;
    long frames = 0, samples = 0;
    poise_motion motion;
    int status;
    while ((status = read_row(file, &t, acc, gyr)) == 1) {
        CHECK(poise_fusion_update(fusion, t, acc, gyr, NULL, &motion, &error));
        CHECK(poise_gyro_process(aim, t, gyr, acc, motion.gravity, NULL, &error));
        samples++;
        if (next_frame < 0) next_frame = start = t;
        /* Every frame that has come due: read the stick from the latest attitude. */
        while (t >= next_frame) {
            poise_tilt_output stick;
            CHECK(poise_tilt_process_attitude(tilt, next_frame, motion.attitude, motion.rotation_rate,
                                              &stick, &error));
            if (stick.stick_x < min_x) min_x = stick.stick_x;
            if (stick.stick_x > max_x) max_x = stick.stick_x;
            if (stick.stick_y < min_y) min_y = stick.stick_y;
            if (stick.stick_y > max_y) max_y = stick.stick_y;
            /* The camera: the gyro's turn since the last frame, plus the flick stick's. */
            poise_gyro_frame turn;
            CHECK(poise_gyro_take_frame(aim, &turn, &error));
            double game_time = next_frame - start, flick_turn;
            int pushed = game_time >= 10 && game_time < 10.5;   /* the right stick, fully right */
            CHECK(poise_flick_update(flick, pushed ? 1.0 : 0.0, 0.0, frame_period, &flick_turn, &error));
            flick_yaw += flick_turn;
            camera_yaw += turn.yaw + flick_turn;
            camera_pitch += turn.pitch;
            if (frames % 60 == 0)
                printf("frame %5ld  t %6.2f s  stick x %+5.2f y %+5.2f  pitch %+6.1f roll %+6.1f deg  camera yaw %+7.1f pitch %+6.1f deg%s\n",
                       frames, next_frame, stick.stick_x, stick.stick_y, stick.pitch * DEGREES_PER_RADIAN,
                       stick.roll * DEGREES_PER_RADIAN, camera_yaw, camera_pitch,
                       stick.event == POISE_HOME_INITIAL ? "  (home)" : "");
            frames++;
            next_frame += frame_period;
        }
    }
    fclose(file);
    poise_tilt_destroy(tilt, NULL);
    poise_gyro_destroy(aim, NULL);
    poise_flick_destroy(flick, NULL);
    poise_fusion_destroy(fusion, NULL);
    if (status < 0) { fprintf(stderr, "%s: unreadable row after %ld samples\n", path, samples); return 1; }
    printf("%ld samples, %ld frames at 60 Hz; stick x in [%+.2f, %+.2f], y in [%+.2f, %+.2f]; camera yaw %+.1f deg "
           "(flick %+.1f), pitch %+.1f deg\n", samples, frames, min_x, max_x, min_y, max_y, camera_yaw, flick_yaw, camera_pitch);
    if (frames == 0 || (max_y - min_y) < 0.5) {
        fprintf(stderr, "the stick did not follow the tilts\n");
        return 1;
    }
    if (fabs(flick_yaw - 90) > 1e-9) {
        fprintf(stderr, "the flick turned %.6f degrees, not 90\n", flick_yaw);
        return 1;
    }
    return 0;
}
