# SPDX-License-Identifier: GPL-2.0
"""What the decoder's check scripts share: counting checks, running
frec-gen into the build directory, running frec-decode."""
import os
import subprocess

IN_FLIGHT = b"# in flight"


def records_only(out):
    """OUT, a text output, without its list of spans in flight (a region
    image's text ends with one; check_inflight.py checks it)."""
    return b"".join(l for l in out.splitlines(keepends=True)
                    if not l.startswith(IN_FLIGHT))


class Checker:
    """Checks of one script: frec-gen GEN_ARGS writes into BUILD/SUBDIR."""

    def __init__(self, build, decoder, subdir, gen_args=()):
        self.gen = os.path.join(build, "frec-gen")
        self.gen_args = list(gen_args)
        self.decoder = decoder
        self.dir = os.path.join(build, subdir)
        os.makedirs(self.dir, exist_ok=True)
        self.passed = self.failed = 0

    def check(self, name, ok, why=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"not ok {name}: {why}")

    def make(self, name, *args):
        prefix = os.path.join(self.dir, name)
        subprocess.run([self.gen, *self.gen_args, *args, prefix], check=True)
        return prefix

    def run_decoder(self, cmd, stdin=None):
        """frec-decode with CMD's arguments: (exit code, stdout, stderr)."""
        p = subprocess.run([self.decoder, *cmd], capture_output=True, stdin=stdin,
                           timeout=300)
        return p.returncode, p.stdout, p.stderr.decode(errors="replace")
