# SPDX-License-Identifier: Apache-2.0
"""The examples of docs/python.md and of the README's "Python" section, run
as doctests from the top of the source tree (their paths are relative to
it)."""
import doctest
import os

import numpy as np


import pytest


@pytest.mark.parametrize("doc,least", [("docs/python.md", 30), ("README.md", 3)])
def test_examples(source_dir, monkeypatch, doc, least):
    monkeypatch.chdir(source_dir)
    path = os.path.join(source_dir, doc)
    with open(path) as f:
        examples = f.read().count(">>> ")
    with np.printoptions(legacy=False):
        failed, attempted = doctest.testfile(path, module_relative=False, report=True,
                                             optionflags=doctest.ELLIPSIS)
    assert attempted == examples and attempted >= least
    assert failed == 0
