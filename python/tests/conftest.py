# SPDX-License-Identifier: Apache-2.0
"""The tests run against the library that ONNXSHAPE_LIBRARY names (the build
tree's, from ctest) or the one installed inside the package."""
import os

import pytest

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


@pytest.fixture(scope="session")
def source_dir():
    return SOURCE_DIR


@pytest.fixture(scope="session")
def examples(source_dir):
    return os.path.join(source_dir, "examples")
