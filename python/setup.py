# SPDX-License-Identifier: Apache-2.0
"""The onnxshape Python package (docs/python.md): pure Python over the C
library libonnxshape.so, which goes inside the package.

Building the package builds the library from the enclosing source tree with
CMake (the build tier of scripts/install-deps: a C compiler, CMake,
protobuf-c), into python/build/cmake; or, when ONNXSHAPE_PREBUILT names a
built libonnxshape.so (`make python` passes the one of build/), copies that
one. Nothing is downloaded: `pip install ./python` needs Debian's
python3-pip, python3-setuptools and python3-wheel, no network."""
import os
import re
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        m = re.search(r"project\(onnxshape VERSION (\d+\.\d+\.\d+)", f.read())
    if m is None:
        raise SystemExit("setup.py: no project(onnxshape VERSION ...) in ../CMakeLists.txt: "
                         "build the package from the onnxshape source tree (python/)")
    return m.group(1)


def built_library():
    """The path of a libonnxshape.so to put in the package."""
    given = os.environ.get("ONNXSHAPE_PREBUILT")
    if given:
        if not os.path.isfile(given):
            raise SystemExit(f"setup.py: ONNXSHAPE_PREBUILT={given} is not a file")
        return given
    build = os.path.join(HERE, "build", "cmake")
    jobs = os.environ.get("ONNXSHAPE_JOBS", "2")
    subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                           "-DBUILD_TESTING=OFF"])
    subprocess.check_call(["cmake", "--build", build, "--target", "onnxshape", "-j", jobs])
    return os.path.join(build, "libonnxshape.so")


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        src = os.path.realpath(built_library())
        dst = os.path.join(self.build_lib, "onnxshape", "libonnxshape.so")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
        os.chmod(dst, 0o755)


class BinaryDistribution(Distribution):
    """The package holds a native library: a platform wheel, installed in
    platlib."""

    def has_ext_modules(self):
        return True


cmdclass = {"build_py": BuildWithLibrary}
try:
    from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        # ctypes: any Python 3, no Python ABI; the library is this platform's.
        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass["bdist_wheel"] = PlatformWheel
except ImportError:  # no wheel: setup.py install still works
    pass

setup(
    name="onnxshape",
    version=project_version(),
    description="ONNX Shape, Reshape and Size exactly, and static shape analysis of ONNX models",
    license="Apache-2.0",
    packages=["onnxshape"],
    python_requires=">=3.9",
    install_requires=["numpy"],
    extras_require={"backend": ["onnx"]},
    distclass=BinaryDistribution,
    cmdclass=cmdclass,
    zip_safe=False,
)
