#!/usr/bin/env python3
"""Checks the OpenCL driver registry the tests run with (OCL_ICD_VENDORS, a folder made by
scripts/setup.sh) against what its name promises:
  icd-intel-gpu       Intel's GPU driver (libigdrcl.so) is registered and its library loads:
                      the machine shape of Debian's intel-opencl-icd without an Intel GPU;
  NAME-asan           every driver of NAME is either registered or named in LEFT-OUT, and no
                      driver that dlopens with RTLD_DEEPBIND (Intel's GPU driver) is registered;
  icd                 at least the two CPU platforms are registered.
usage: icd_registry.py
"""
import ctypes
import glob
import os
import sys

import benchtest as bt


def drivers(folder):
    out = {}
    for f in sorted(glob.glob(os.path.join(folder, "*.icd"))):
        with open(f) as fh:
            out[os.path.basename(f)] = fh.readline().strip()
    return out


def main() -> int:
    reg = os.environ.get("OCL_ICD_VENDORS", "")
    if not os.path.isdir(reg):
        bt.fail(f"OCL_ICD_VENDORS={reg!r} is not a registry folder (run scripts/setup.sh)")
    name, have = os.path.basename(reg.rstrip("/")), drivers(reg)
    print(f"{reg}: {', '.join(f'{k} ({v})' for k, v in have.items())}")
    if name.endswith("-asan"):
        full = drivers(reg[:-len("-asan")])
        with open(os.path.join(reg, "LEFT-OUT")) as fh:
            left = fh.read()
        print("left out:\n" + (left or "nothing\n"), end="")
        for icd, lib in full.items():
            bt.check(icd in have or icd in left,
                     f"{icd} ({lib}) is neither registered nor named in LEFT-OUT")
        for icd, lib in have.items():
            bt.check("libigdrcl" not in lib, f"{icd} ({lib}) is registered: it aborts a process "
                     "built with AddressSanitizer")
    elif name == "icd-intel-gpu":
        gpu = [lib for lib in have.values() if "libigdrcl" in lib]
        bt.check(gpu, "Intel's GPU driver (libigdrcl.so) is not registered")
        for lib in gpu:
            try:
                ctypes.CDLL(lib)
            except OSError as e:
                bt.check(False, f"Intel's GPU driver does not load: {e}")
    bt.check(len(have) >= 2, f"{len(have)} driver(s) registered: both CPU platforms are expected")
    return bt.verdict()


if __name__ == "__main__":
    sys.exit(main())
