"""Build parts of the poise package that pyproject.toml cannot express.

- The version is read from include/poise.h (POISE_VERSION), the one place it is written.
- When libpoise is placed in the package folder (scripts/build_wheel.sh does it for `make dist`),
  the wheel is a platform wheel: tagged py3-none-PLATFORM (the library is loaded with ctypes, so
  any Python 3 runs it), PLATFORM from POISE_WHEEL_PLATFORM (default: this machine's, e.g.
  linux_x86_64; auditwheel then checks and sets the manylinux tag).
"""
import os
import re

from setuptools import Distribution, setup

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))


def version():
    header = os.path.join(HERE, "..", "include", "poise.h")
    try:
        with open(header, encoding="utf-8") as file:
            found = re.search(r'^#define POISE_VERSION "([^"]+)"', file.read(), re.MULTILINE)
    except OSError as error:
        raise SystemExit(f"poise: cannot read the version from {header} ({error}); build from the "
                         "Poise source tree (python/ next to include/)") from error
    if not found:
        raise SystemExit(f"poise: no POISE_VERSION in {header}")
    return found.group(1)


def carries_library():
    folder = os.path.join(HERE, "poise")
    return any(name.startswith("libpoise.so") for name in os.listdir(folder))


class LibraryDistribution(Distribution):
    """Installed into platlib (not purelib) when the package carries libpoise."""

    def has_ext_modules(self):
        return carries_library()


class PlatformWheel(bdist_wheel):
    """py3-none-PLATFORM when the package carries libpoise; the pure wheel otherwise."""

    def finalize_options(self):
        platform = os.environ.get("POISE_WHEEL_PLATFORM")
        if platform and carries_library():
            self.plat_name = platform
        super().finalize_options()

    def get_tag(self):
        python, abi, platform = super().get_tag()
        return ("py3", "none", platform) if carries_library() else (python, abi, platform)


setup(version=version(), distclass=LibraryDistribution, cmdclass={"bdist_wheel": PlatformWheel})
