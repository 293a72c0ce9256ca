// A robot node loop on Poise's C API from C++: a 200 Hz IMU (accelerometer, gyroscope,
// magnetometer) is fused in 9D and the attitude printed as yaw/pitch/roll (ENU; yaw
// counter-clockwise from east) twice a second. The IMU is simulated here: the robot turns
// about the vertical at 20 deg/s for 9 s, then stops. Half way the node "restarts": the
// estimator's state is saved as bytes and restored into a new one, which continues exactly.
// Exits 1 if a call fails or the final heading is off by more than 3 degrees.
//
//   c++ robot_loop.cpp $(pkg-config --cflags --libs poise) -o robot_loop && ./robot_loop
#include <poise.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void check(poise_status status, const poise_error &error, const char *what) {
    if (status != POISE_OK) throw std::runtime_error(std::string(what) + ": " + error.message);
}

// RAII owner of a poise_fusion handle.
class Fusion {
public:
    explicit Fusion(const poise_fusion_config &config) {
        poise_error error;
        handle_.reset(poise_fusion_create(&config, &error));
        if (!handle_) throw std::runtime_error(std::string("poise_fusion_create: ") + error.message);
    }
    poise_motion update(double t, const double acc[3], const double gyr[3], const double mag[3]) {
        poise_error error;
        poise_motion motion;
        check(poise_fusion_update(handle_.get(), t, acc, gyr, mag, &motion, &error), error, "poise_fusion_update");
        return motion;
    }
    std::vector<unsigned char> save() const {
        std::vector<unsigned char> bytes(poise_fusion_state_size());
        poise_error error;
        check(poise_fusion_save_state(handle_.get(), bytes.data(), bytes.size(), nullptr, &error), error, "save");
        return bytes;
    }
    void restore(const std::vector<unsigned char> &bytes) {
        poise_error error;
        check(poise_fusion_restore_state(handle_.get(), bytes.data(), bytes.size(), &error), error, "restore");
    }

private:
    struct Destroy { void operator()(poise_fusion *f) const { poise_fusion_destroy(f, nullptr); } };
    std::unique_ptr<poise_fusion, Destroy> handle_;
};

constexpr double kDegree = 3.14159265358979323846 / 180;

// Yaw (about z), pitch (about y), roll (about x), degrees, of a device -> ENU quaternion.
void angles(const double q[4], double &yaw, double &pitch, double &roll) {
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    yaw = std::atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)) / kDegree;
    pitch = std::asin(std::fmax(-1.0, std::fmin(1.0, 2 * (w * y - z * x)))) / kDegree;
    roll = std::atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)) / kDegree;
}

}  // namespace

int main() try {
    const double rate = 200, turn_rate = 20 * kDegree;
    poise_error error;
    poise_fusion_config config;
    check(poise_fusion_config_default(&config, rate, &error), error, "config");
    auto fusion = std::make_unique<Fusion>(config);

    // Earth field (ENU, microtesla): 25 north, 43 down. The robot starts facing 30 degrees
    // north of east (yaw 30), level; it turns at turn_rate for 9 s.
    const double start_yaw = 30 * kDegree;
    double yaw_truth = start_yaw;
    poise_motion motion{};
    const int steps = static_cast<int>(20 * rate);
    for (int i = 0; i < steps; i++) {
        const double t = i / rate;
        const double omega = (t >= 5 && t < 14) ? turn_rate : 0.0;
        yaw_truth += omega / rate;
        // Sensors in the device frame (level robot, so only the heading rotates them).
        const double c = std::cos(yaw_truth), s = std::sin(yaw_truth);
        const double field_east = 0, field_north = 25, field_up = -43;
        const double acc[3] = {0, 0, 1};
        const double gyr[3] = {0.002, -0.001, omega + 0.003};  // with a small bias
        const double mag[3] = {c * field_east + s * field_north, -s * field_east + c * field_north, field_up};
        motion = fusion->update(t, acc, gyr, mag);
        if (i == steps / 2) {  // restart the node: save, new estimator, restore
            auto bytes = fusion->save();
            fusion = std::make_unique<Fusion>(config);
            fusion->restore(bytes);
            std::printf("t %5.2f s  state saved (%zu bytes) and restored into a new estimator\n", t, bytes.size());
        }
        if (i % static_cast<int>(rate / 2) == 0) {
            double yaw, pitch, roll;
            angles(motion.attitude, yaw, pitch, roll);
            std::printf("t %5.2f s  yaw %+7.2f (true %+7.2f)  pitch %+5.2f  roll %+5.2f deg  bias z %+.4f rad/s%s\n", t,
                        yaw, std::remainder(yaw_truth / kDegree, 360.0), pitch, roll, motion.bias[2],
                        (motion.flags & POISE_FLAG_AT_REST) ? "  at rest" : "");
        }
    }
    double yaw, pitch, roll;
    angles(motion.attitude, yaw, pitch, roll);
    const double error_deg = std::fabs(std::remainder(yaw - yaw_truth / kDegree, 360.0));
    std::printf("final yaw %.2f deg, true %.2f deg, error %.2f deg\n", yaw,
                std::remainder(yaw_truth / kDegree, 360.0), error_deg);
    return error_deg <= 3 ? 0 : 1;
} catch (const std::exception &e) {
    std::fprintf(stderr, "robot_loop: %s\n", e.what());
    return 1;
}
