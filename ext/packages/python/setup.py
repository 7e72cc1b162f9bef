"""The wheel's tags, which pyproject.toml cannot set: py3-none-<platform>.

py3 and none: the module is pure Python and its library (bloom.so, bloom.dll) uses no Python ABI
(SQLite loads it, not Python), so any Python 3 can use it. The platform is the one the library is
compiled for, which build_wheel.sh gives in SQLITE_BLOOM_WHEEL_PLATFORM (linux_x86_64,
linux_aarch64, win_amd64), else the build machine's as setuptools names it. A Linux library needs
the glibc it was built against or later (docs/install.md); a manylinux tag would claim a glibc
floor checked by auditwheel, which this build does not run, so the wheel does not claim one.
"""
import os

from setuptools import setup
from setuptools.dist import Distribution
from wheel.bdist_wheel import bdist_wheel


class DistributionWithCompiledCode(Distribution):
    """A distribution holding compiled code (its library), though no Python extension module."""

    def has_ext_modules(self):
        return True


class PlatformWheelForAnyPython3(bdist_wheel):
    """bdist_wheel that tags the wheel py3-none-<platform>, as its contents are."""

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", os.environ.get("SQLITE_BLOOM_WHEEL_PLATFORM") or platform


setup(distclass=DistributionWithCompiledCode, cmdclass={"bdist_wheel": PlatformWheelForAnyPython3})
