#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/check-messages can fail (the messages_pinned_selftest test).

covers: DIAG-PINNED

Copies what the check reads (src/, include/, docs/requirements.md, the
script and its allowlist, and the expectation files of tests/) to WORK,
then on that copy:
  1. the check passes or fails as on the tree (the copy is faithful);
  2. one pinned message format of src/ is reworded: the check fails and
     names that file:line and the new format;
  3. the new wording in a test's comment does not pin it (a comment is no
     assertion), nor the wording with an argument left as `{}`;
  4. the new wording, arguments filled, in a test's string literal (split
     over two lines) pins it again: the check passes as in 1.
Usage: selftest.py SOURCE_DIR WORK_DIR
"""
import os
import shutil
import subprocess
import sys

src, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
EXPECT = (".exact", ".c", ".h", ".py", ".json", ".txt", ".sh")
for d in ("src", "include"):
    shutil.copytree(os.path.join(src, d), os.path.join(work, d))
for base, _, names in os.walk(os.path.join(src, "tests")):
    for name in names:
        if name.endswith(EXPECT) or name == "MANIFEST":
            p = os.path.join(base, name)
            q = os.path.join(work, os.path.relpath(p, src))
            os.makedirs(os.path.dirname(q), exist_ok=True)
            shutil.copy(p, q)
os.makedirs(os.path.join(work, "scripts"))
os.makedirs(os.path.join(work, "docs"))
shutil.copy(os.path.join(src, "docs", "requirements.md"), os.path.join(work, "docs"))
for name in ("check-messages", "check-messages.allow"):
    if os.path.exists(os.path.join(src, "scripts", name)):
        shutil.copy(os.path.join(src, "scripts", name), os.path.join(work, "scripts"))
script = os.path.join(work, "scripts", "check-messages")
failures = []


def check(what):
    r = subprocess.run(["/usr/bin/python3", script, "--root", work, "--quiet"],
                       capture_output=True, text=True)
    print(f"--- {what}: exit {r.returncode}\n{r.stdout}{r.stderr}", end="")
    return r


base = check("the copy as it is")
# The one format changed: Reshape's rule for a dim below -1 (pinned by
# tests/test_reshape.c and the README example).
path = os.path.join(work, "src", "ops", "reshape.c")
text = open(path).read()
old = '"shape[{}] = {}; a dimension cannot be below -1"'
new = '"shape[{}] = {}; a dimension may not be below -1"'
if text.count(old) != 1:
    sys.exit(f"selftest: {old} is not once in src/ops/reshape.c; update the test")
line = text[:text.index(old)].count("\n") + 1
open(path, "w").write(text.replace(old, new))
named = f'src/ops/reshape.c:{line}: "shape[{{}}] = {{}}; a dimension may not be below -1"'

r = check("the format reworded")
if r.returncode != 1 or named not in r.stdout:
    failures.append(f"the reworded format did not fail naming {named}")

probe = os.path.join(work, "tests", "test_selftest_probe.c")
with open(probe, "w") as f:
    f.write("/* Reshape-14: shape[1] = -2; a dimension may not be below -1 */\n"
            "// Reshape-14: shape[1] = -2; a dimension may not be below -1\n"
            'static const char *half = "Reshape-14: shape[{}] = {}; a dimension may not be below -1";\n')
r = check("the wording in a comment, and with its arguments unfilled")
if r.returncode != 1 or named not in r.stdout:
    failures.append("a comment or an unfilled format counted as an assertion")

with open(probe, "a") as f:
    f.write('static const char *want = "Reshape-14 (node \'n0\'): shape[1] = -2; "\n'
            '                          "a dimension may not be below -1";\n')
r = check("the wording asserted by a test")
if r.returncode != base.returncode or named in r.stdout:
    failures.append("the reworded format, asserted by a test, still counted as unpinned")

for f in failures:
    print("FAIL " + f)
print("selftest: " + ("failed" if failures else "the check fails on a reworded message, as it must"))
sys.exit(1 if failures else 0)
