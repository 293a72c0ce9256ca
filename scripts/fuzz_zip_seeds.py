"""Writes the seed corpora of the `zip` and `columns` fuzz targets (Fuzz/corpus/zip/,
Fuzz/corpus/columns/): small synthetic Sensor Logger and phyphox exports (made-up numbers, no
recorded data; phyphox's layout: one file per sensor at the top with a quoted header and
`0.000000000E0` numbers, comma or semicolon with decimal commas, and meta/) zipped with Python's
zipfile, deflated and stored, without their first 4 bytes (the target puts
`PK\\3\\4` back); and mapping/mount/CSV inputs for the column mapping target.

    python3 scripts/fuzz_zip_seeds.py
"""
import io
import os
import zipfile

root = os.path.join(os.path.dirname(__file__), "..", "Fuzz", "corpus")


def sensor(rows, period_ns, values):
    text = "time,seconds_elapsed,z,y,x\n"
    for i in range(rows):
        x, y, z = values(i)
        text += "%d,%.3f,%.4f,%.4f,%.4f\n" % (1760000000000000000 + i * period_ns, i * period_ns * 1e-9, z, y, x)
    return text


sessions = {
    "ios-gravity": {
        "Accelerometer.csv": sensor(8, 10_000_000, lambda i: (0.01 * i, 0, 0.1)),
        "Gravity.csv": sensor(8, 10_000_000, lambda i: (0, 0, -9.8066)),
        "Gyroscope.csv": sensor(8, 10_000_000, lambda i: (0.1, 0, -0.1 * i)),
        "Magnetometer.csv": sensor(3, 30_000_000, lambda i: (20, 5, -40 + i)),
    },
    "android-total": {
        "TotalAcceleration.csv": sensor(6, 20_000_000, lambda i: (0, 0, 9.8 + i)),
        "Gyroscope.csv": sensor(12, 10_000_000, lambda i: (i, 0, 0)),
    },
    "gyro-only": {"Gyroscope.csv": sensor(5, 10_000_000, lambda i: (0, i, 0))},
}



def phyphox_number(value, decimal):
    mantissa, exponent = ("%.9E" % value).split("E")
    return mantissa.replace(".", decimal) + "E" + str(int(exponent))


def phyphox(rows, period, names, values, delimiter, decimal):
    text = delimiter.join('"%s"' % n for n in ["Time (s)"] + names) + "\n"
    for i in range(rows):
        text += delimiter.join(phyphox_number(v, decimal) for v in (0.001 + i * period,) + values(i)) + "\n"
    return text


def phyphox_session(delimiter, decimal):
    axes = lambda quantity, unit: ["%s %s (%s)" % (quantity, a, unit) for a in "xyz"]
    return {
        "Accelerometer.csv": phyphox(8, 0.0025, axes("Acceleration", "m/s^2"), lambda i: (0.1 * i, 0.0, 9.81), delimiter, decimal),
        "Gyroscope.csv": phyphox(4, 0.005, axes("Gyroscope", "rad/s"), lambda i: (0.0, 0.01 * i, 0.0), delimiter, decimal),
        "Magnetometer.csv": phyphox(2, 0.02, axes("Magnetic field", "\u00b5T"), lambda i: (20.0, 0.0, -40.0 + i), delimiter, decimal),
        "Linear Acceleration.csv": phyphox(3, 0.0025, axes("Linear Acceleration", "m/s^2"), lambda i: (0.0, 0.0, 0.1), delimiter, decimal),
        "meta/device.csv": delimiter.join(['"property"', '"value"']) + "\n",
        "meta/time.csv": delimiter.join(['"event"', '"experiment time"', '"system time"', '"system time text"']) + "\n",
    }


phyphox_sessions = {"phyphox-comma": phyphox_session(",", "."), "phyphox-semicolon": phyphox_session(";", ",")}

os.makedirs(os.path.join(root, "zip"), exist_ok=True)
for name, files in list(sessions.items()) + list(phyphox_sessions.items()):
    for method, tag in ((zipfile.ZIP_DEFLATED, "deflate"), (zipfile.ZIP_STORED, "stored")):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", method) as archive:
            for file, text in files.items():
                # phyphox puts its files at the top of the archive, Sensor Logger in a folder.
                archive.writestr(file if name.startswith("phyphox") else "session/" + file, text)
        data = buffer.getvalue()
        assert data[:4] == b"PK\x03\x04" and len(data) <= 4096, (name, len(data))
        with open(os.path.join(root, "zip", "%s-%s" % (name, tag)), "wb") as out:
            out.write(data[4:])

columns = {
    "headerless": "t=1:ms,acc=2,3,4:mps2,gyr=5,6,7:dps\nx=-y,y=x,z=z\n\x02preamble\nline 2\n0,0.1,0.2,9.8,1,2,3\n10,0.1,0.2,9.8,1,2,3\n",
    "named": "t=time:ns,mag=x,y,z:au\n10,-20,90\n\x00time,seconds_elapsed,z,y,x\n1000,0,1,2,3\n2000,0,4,5,6\n",
    "semicolon": "acc=2,3,4:g\n-Y+X+Z\n\x00" + "0,00;0,5;0;1\n0,01;0,25;0;1\n",
    "errors": "t=time:s,acc=ax,ay,azz:g\nx=y,y=x,z=z\n\x01# comment\ntime,ax,ay,az\n0,0,0,1\n",
}
os.makedirs(os.path.join(root, "columns"), exist_ok=True)
for name, text in columns.items():
    with open(os.path.join(root, "columns", name), "w") as out:
        out.write(text)
