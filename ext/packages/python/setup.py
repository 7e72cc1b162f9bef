"""The wheel's tags, which pyproject.toml cannot set: py3-none-<platform>.

py3 and none: the module is pure Python and bloom.so uses no Python ABI (SQLite loads it, not
Python), so any Python 3 can use it. The platform is the build machine's as setuptools names it,
linux_x86_64 on x86-64 Linux: bloom.so is compiled for that processor, and needs the glibc it was
built against or later (2.29 from Debian 12's build). A manylinux tag would claim a glibc floor
checked by auditwheel, which this build does not run, so the wheel does not claim one.
"""
from setuptools import setup
from setuptools.dist import Distribution
from wheel.bdist_wheel import bdist_wheel


class DistributionWithCompiledCode(Distribution):
    """A distribution holding compiled code (bloom.so), though no Python extension module."""

    def has_ext_modules(self):
        return True


class PlatformWheelForAnyPython3(bdist_wheel):
    """bdist_wheel that tags the wheel py3-none-<platform>, as its contents are."""

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(distclass=DistributionWithCompiledCode, cmdclass={"bdist_wheel": PlatformWheelForAnyPython3})
