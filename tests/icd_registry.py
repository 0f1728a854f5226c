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


def drivers(folder):
    out = {}
    for f in sorted(glob.glob(os.path.join(folder, "*.icd"))):
        with open(f) as fh:
            out[os.path.basename(f)] = fh.readline().strip()
    return out


def main() -> int:
    reg = os.environ.get("OCL_ICD_VENDORS", "")
    if not os.path.isdir(reg):
        print(f"OCL_ICD_VENDORS={reg!r} is not a registry folder (run scripts/setup.sh)")
        return 1
    name, have, errors = os.path.basename(reg.rstrip("/")), drivers(reg), []
    print(f"{reg}: {', '.join(f'{k} ({v})' for k, v in have.items())}")
    if name.endswith("-asan"):
        full = drivers(reg[:-len("-asan")])
        with open(os.path.join(reg, "LEFT-OUT")) as fh:
            left = fh.read()
        print("left out:\n" + (left or "nothing\n"), end="")
        for icd, lib in full.items():
            if icd not in have and icd not in left:
                errors.append(f"{icd} ({lib}) is neither registered nor named in LEFT-OUT")
        errors += [f"{icd} ({lib}) is registered: it aborts a process built with "
                   "AddressSanitizer" for icd, lib in have.items() if "libigdrcl" in lib]
    elif name == "icd-intel-gpu":
        gpu = [lib for lib in have.values() if "libigdrcl" in lib]
        if not gpu:
            errors.append("Intel's GPU driver (libigdrcl.so) is not registered")
        for lib in gpu:
            try:
                ctypes.CDLL(lib)
            except OSError as e:
                errors.append(f"Intel's GPU driver does not load: {e}")
    if len(have) < 2:
        errors.append(f"{len(have)} driver(s) registered: both CPU platforms are expected")
    print("\n".join(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
