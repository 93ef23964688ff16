#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Specification of wavefit's code object reader against independent tools (Python stdlib only).

For every sample file built from samples.hip, every field of every kernel that the reader reports
(through the dump_kernels driver) must equal what llvm-readobj --notes prints for the same code
object; the code objects inside offload bundles and .hip_fatbin sections are extracted with
llvm-objcopy and clang-offload-bundler, not with wavefit. Then:
  * each kernel's occupancy rows (wavefit::occupancy on presets::find(target)) equal the
    formula of hipOccupancyMaxActiveBlocksPerMultiprocessor (docs/device-facts.md section 3), for block
    sizes from 64 to the kernel's bound in steps of 64;
  * the compiler's own account in the assembly (-S) agrees: TotalNumVgprs == .vgpr_count (the
    unified VGPR+AGPR count, = AccumOffset + NumAgprs when AGPRs are used), NumSgprs == .sgpr_count,
    ScratchSize == .private_segment_fixed_size, and its Occupancy equals min(8, 512 / align8(vgprs))
    for kernels without static LDS;
  * the samples show what they were written to show (AGPRs, spills under a bound of 1024, LDS sizes).

Usage: test_code_objects.py --dump DUMP_KERNELS --readobj LLVM_READOBJ --bundler CLANG_OFFLOAD_BUNDLER
           --objcopy LLVM_OBJCOPY KIND:FILE...
KIND is co (a plain code object of samples.hip), other (a plain code object of other kernels, left
out of the per-sample checks), bundle (an offload bundle file), host (an ELF with .hip_fatbin) or
asm (hipcc -S output for one target, named *-<target>.s).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
FIELDS = ("target", "name", "symbol", "vgpr_count", "agpr_count", "sgpr_count", "vgpr_spill_count",
          "sgpr_spill_count", "wavefront_size", "max_flat_workgroup_size", "group_segment_fixed_size",
          "private_segment_fixed_size", "uses_dynamic_stack")
# llvm-readobj's YAML keys for the numeric fields above.
READOBJ_KEYS = {".vgpr_count": "vgpr_count", ".agpr_count": "agpr_count", ".sgpr_count": "sgpr_count",
                ".vgpr_spill_count": "vgpr_spill_count", ".sgpr_spill_count": "sgpr_spill_count",
                ".wavefront_size": "wavefront_size", ".max_flat_workgroup_size": "max_flat_workgroup_size",
                ".group_segment_fixed_size": "group_segment_fixed_size",
                ".private_segment_fixed_size": "private_segment_fixed_size"}


class Checker:
    def __init__(self):
        self.failures = []
        self.checks = 0

    def expect(self, ok, message):
        self.checks += 1
        if not ok:
            self.failures.append(message)
            print("FAIL: " + message, flush=True)


def run(args, **kw):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw).stdout


def yaml_scalar(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return text


def readobj_kernels(readobj, path):
    """Kernels of one code object as llvm-readobj --notes prints its AMDGPU metadata (YAML)."""
    out = run([readobj, "--notes", path]).decode()
    start = out.find("AMDGPU Metadata: ---")
    if start < 0:
        raise RuntimeError(f"llvm-readobj found no AMDGPU metadata in {path}")
    kernels, target, current, in_kernels = [], None, None, False
    for line in out[start:].splitlines()[1:]:
        if line.strip() == "...":
            break
        if not line.startswith(" "):  # a top-level key
            in_kernels = line.startswith("amdhsa.kernels:")
            if line.startswith("amdhsa.target:"):
                target = yaml_scalar(line.split(":", 1)[1])
            continue
        if not in_kernels:
            continue
        if line.startswith("  - "):  # a new kernel; its first key follows the dash
            current = {"agpr_count": 0, "vgpr_spill_count": 0, "sgpr_spill_count": 0, "uses_dynamic_stack": False}
            kernels.append(current)
            line = "    " + line[4:]
        m = re.match(r"^    (\.[a-z_]+):\s*(.*)$", line)  # keys of the kernel map (deeper lines are args)
        if not m or current is None:
            continue
        key, value = m.group(1), m.group(2)
        if key in READOBJ_KEYS:
            current[READOBJ_KEYS[key]] = int(value)
        elif key == ".name":
            current["name"] = yaml_scalar(value)
        elif key == ".symbol":
            current["symbol"] = yaml_scalar(value)
        elif key == ".uses_dynamic_stack":
            current["uses_dynamic_stack"] = value.strip() == "true"
    prefix = "amdgcn-amd-amdhsa--"
    if target is None or not target.startswith(prefix):
        raise RuntimeError(f"unexpected amdhsa.target {target!r} in {path}")
    for k in kernels:
        k["target_id"] = target[len(prefix):]
        k["target"] = k["target_id"].split(":")[0]
    return kernels


def bundle_code_objects(bundler, data, tmp):
    """Code objects of the offload bundles in `data` (one bundle, or a .hip_fatbin of several),
    extracted with clang-offload-bundler."""
    paths, starts = [], [m.start() for m in re.finditer(re.escape(BUNDLE_MAGIC), data)]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(data)
        chunk = os.path.join(tmp, f"bundle{n}.bin")
        with open(chunk, "wb") as f:
            f.write(data[start:end])
        targets = run([bundler, "--type=o", f"--input={chunk}", "--list"]).decode().split()
        for t in targets:
            if t.startswith("host-"):
                continue
            out = os.path.join(tmp, f"bundle{n}-{t.replace(':', '_')}.co")
            run([bundler, "--type=o", f"--input={chunk}", f"--targets={t}", f"--output={out}", "--unbundle"])
            paths.append(out)
    return paths


def tools_parser(program_option):
    """The command line of both scripts: the program under test (program_option), the LLVM tools that
    expected_kernels() runs, and the files as KIND:PATH."""
    p = argparse.ArgumentParser()
    p.add_argument(program_option, required=True)
    for tool in ("--readobj", "--bundler", "--objcopy"):
        p.add_argument(tool, required=True)
    p.add_argument("files", nargs="+")
    return p


def expected_kernels(kind, path, tools, tmp):
    if kind in ("co", "other"):
        return readobj_kernels(tools.readobj, path)
    if kind == "bundle":
        with open(path, "rb") as f:
            data = f.read()
    else:  # host
        dumped = os.path.join(tmp, "hip_fatbin.bin")
        run([tools.objcopy, f"--dump-section=.hip_fatbin={dumped}", path, os.path.join(tmp, "objcopy.out")])
        with open(dumped, "rb") as f:
            data = f.read()
    kernels = []
    for co in bundle_code_objects(tools.bundler, data, tmp):
        kernels += readobj_kernels(tools.readobj, co)
    return kernels


def dumped_kernels(dump, path):
    return [json.loads(line) for line in run([dump, path]).decode().splitlines() if line.strip()]


def key_of(k):
    return tuple(k[f] for f in FIELDS)


def align_up(v, unit):
    return (v + unit - 1) // unit * unit


def hip_occupancy(kernel, block):
    """hipOccupancyMaxActiveBlocksPerMultiprocessor on gfx90a / gfx940-942 (docs/device-facts.md section 3):
    4 SIMDs x 8 waves, 512 unified VGPRs per lane in granules of 8, 800 SGPRs in granules of 16,
    64 KiB of LDS per CU."""
    waves = 8
    if kernel["vgpr_count"] > 0:
        waves = min(waves, 512 // align_up(kernel["vgpr_count"], 8))
    if kernel["sgpr_count"] > 0:
        waves = min(waves, 800 // align_up(kernel["sgpr_count"], 16))
    alu_threads = 4 * waves * 64
    blocks = alu_threads // align_up(block, 64)
    if kernel["group_segment_fixed_size"] > 0:
        blocks = min(blocks, 65536 // kernel["group_segment_fixed_size"])
    return blocks


def check_occupancy(c, where, k):
    if k["target"] not in ("gfx90a", "gfx940", "gfx941", "gfx942"):
        return
    rows = {r["block"]: r for r in k["occupancy"]}
    bound = min(k["max_flat_workgroup_size"], 1024)
    c.expect(sorted(rows) == list(range(64, bound + 1, 64)),
             f"{where}: {k['name']} ({k['target']}): occupancy rows for blocks {sorted(rows)}, want 64..{bound}")
    for block in range(64, bound + 1, 64):
        if block not in rows:
            continue
        want = hip_occupancy(k, block)
        got = rows[block]["active_blocks_per_cu"]
        c.expect(got == want, f"{where}: {k['name']} ({k['target']}) block {block}: wavefit gives {got} blocks per CU, "
                              f"the HIP formula {want} (vgprs {k['vgpr_count']}, sgprs {k['sgpr_count']}, "
                              f"LDS {k['group_segment_fixed_size']})")
        c.expect(rows[block]["active_waves_per_cu"] == want * (block // 64),
                 f"{where}: {k['name']} block {block}: waves {rows[block]['active_waves_per_cu']} != {want} x {block // 64}")


def compare_file(c, kind, path, tools):
    where = os.path.basename(path)
    with tempfile.TemporaryDirectory() as tmp:
        want = expected_kernels(kind, path, tools, tmp)
    got = dumped_kernels(tools.dump, path)
    c.expect(len(want) > 0, f"{where}: the independent tools found no kernels")
    c.expect(len(got) == len(want), f"{where}: wavefit reads {len(got)} kernels, llvm-readobj {len(want)}")
    missing = sorted(set(map(key_of, want)) - set(map(key_of, got)))
    extra = sorted(set(map(key_of, got)) - set(map(key_of, want)))
    for m in missing:
        c.expect(False, f"{where}: llvm-readobj has {dict(zip(FIELDS, m))}, wavefit has no such kernel")
    for e in extra:
        c.expect(False, f"{where}: wavefit reports {dict(zip(FIELDS, e))}, llvm-readobj has no such kernel")
    c.expect(sorted(map(key_of, got)) == sorted(map(key_of, want)), f"{where}: kernel multisets differ")
    for k in got:
        c.expect(k["target_id"].split(":")[0] == k["target"], f"{where}: target_id {k['target_id']} vs {k['target']}")
        check_occupancy(c, where, k)
    print(f"{where} ({kind}): {len(got)} kernels match llvm-readobj", flush=True)
    return got


def assembly_kernel_info(path):
    """The compiler's '; Kernel info:' block per kernel of a hipcc -S file."""
    info, name = {}, None
    with open(path) as f:
        for line in f:
            m = re.match(r"^\s*\.amdhsa_kernel\s+(\S+)", line)
            if m:
                name = m.group(1)
                info[name] = {}
                continue
            m = re.match(r"^\s*\.amdhsa_accum_offset\s+(\d+)", line)
            if m and name:
                info[name]["AccumOffset"] = int(m.group(1))
            m = re.match(r"^; (NumSgprs|NumVgprs|NumAgprs|TotalNumVgprs|ScratchSize|Occupancy): (\d+)", line)
            if m and name:
                info[name][m.group(1)] = int(m.group(2))
    return info


def check_assembly(c, path, kernels_by_target):
    target = re.search(r"[-_](gfx[0-9a-z]+)\.s$", path).group(1)
    where = os.path.basename(path)
    info = assembly_kernel_info(path)
    kernels = {k["name"]: k for k in kernels_by_target.get(target, [])}
    c.expect(set(info) == set(kernels), f"{where}: assembly kernels {sorted(info)} != code object kernels {sorted(kernels)}")
    for name, a in info.items():
        k = kernels.get(name)
        if k is None:
            continue
        c.expect(a.get("TotalNumVgprs") == k["vgpr_count"],
                 f"{where}: {name}: TotalNumVgprs {a.get('TotalNumVgprs')} != .vgpr_count {k['vgpr_count']}")
        c.expect(a.get("NumAgprs") == k["agpr_count"], f"{where}: {name}: NumAgprs {a.get('NumAgprs')} != .agpr_count {k['agpr_count']}")
        if k["agpr_count"] > 0:
            c.expect(a.get("AccumOffset", -1) + k["agpr_count"] == k["vgpr_count"],
                     f"{where}: {name}: AccumOffset {a.get('AccumOffset')} + AGPRs {k['agpr_count']} != unified .vgpr_count {k['vgpr_count']}")
        c.expect(a.get("NumSgprs") == k["sgpr_count"], f"{where}: {name}: NumSgprs {a.get('NumSgprs')} != .sgpr_count {k['sgpr_count']}")
        c.expect(a.get("ScratchSize") == k["private_segment_fixed_size"],
                 f"{where}: {name}: ScratchSize {a.get('ScratchSize')} != .private_segment_fixed_size {k['private_segment_fixed_size']}")
        if k["group_segment_fixed_size"] == 0:
            want = min(8, 512 // align_up(k["vgpr_count"], 8))
            c.expect(a.get("Occupancy") == want, f"{where}: {name}: compiler Occupancy {a.get('Occupancy')} != min(8, 512/align8({k['vgpr_count']})) = {want}")
    print(f"{where}: {len(info)} kernels agree with the compiler's kernel info", flush=True)


def check_sample_intent(c, kernels):
    """What the samples were written to show, per target (demonstrates docs/device-facts.md section 3)."""
    by_target = {}
    for k in kernels:
        by_target.setdefault(k["target"], {})[k["name"]] = k
    for target, ks in sorted(by_target.items()):
        def get(name):
            k = ks.get(name)
            c.expect(k is not None, f"{target}: sample kernel {name} missing")
            return k or {}
        light = get("_Z10light_axpyfPKfPfi")
        c.expect(light.get("max_flat_workgroup_size") == 1024, f"{target}: default bound is not 1024: {light}")
        c.expect(get("_Z14light_axpy_256fPKfPfi").get("max_flat_workgroup_size") == 256, f"{target}: bound 256 not recorded")
        h256, h1024 = get("_Z9heavy_256PKfPfi"), get("_Z17heavy_1024_spillsPKfPfi")
        c.expect(h256.get("private_segment_fixed_size") == 0 and h256.get("vgpr_count", 0) > 128,
                 f"{target}: heavy_256 should use > 128 VGPRs without scratch: {h256}")
        c.expect(h1024.get("vgpr_count", 999) <= 128 and h1024.get("private_segment_fixed_size", 0) > 0
                 and h1024.get("vgpr_spill_count", 0) > 0, f"{target}: heavy_1024_spills should spill within 128 VGPRs: {h1024}")
        mfma = get("_Z15mfma_accumulatePKDv4_DF16_PDv16_fi")
        c.expect(mfma.get("agpr_count", 0) > 0, f"{target}: the MFMA sample uses no AGPRs: {mfma}")
        spill = get("_Z14agpr_spill_256PKfPfi")
        c.expect(spill.get("vgpr_count", 0) > 256 and spill.get("agpr_count", 0) > 0,
                 f"{target}: agpr_spill_256 should exceed 256 unified registers with AGPRs: {spill}")
        for size in (4096, 24576, 49152):
            lds = get(f"_Z8lds_tileILi{size}EEvPf")
            c.expect(lds.get("group_segment_fixed_size") == size, f"{target}: lds_tile<{size}> records {lds.get('group_segment_fixed_size')}")
        c.expect(get("_Z11dynamic_ldsPf").get("group_segment_fixed_size") == 0, f"{target}: dynamic LDS counted as static")
        for k in ks.values():
            c.expect(k["wavefront_size"] == 64, f"{target}: {k['name']} wavefront size {k['wavefront_size']}")
            c.expect(k["symbol"] == k["name"] + ".kd", f"{target}: {k['name']} symbol {k['symbol']}")


def main():
    tools = tools_parser("--dump").parse_args()
    c = Checker()
    plain_kernels, asm_files = [], []
    for spec in tools.files:
        kind, path = spec.split(":", 1)
        if kind == "asm":
            asm_files.append(path)
            continue
        got = compare_file(c, kind, path, tools)
        if kind == "co":
            plain_kernels += got
    by_target = {}
    for k in plain_kernels:
        by_target.setdefault(k["target"], []).append(k)
    for path in asm_files:
        check_assembly(c, path, by_target)
    check_sample_intent(c, plain_kernels)
    print(f"{c.checks} checks, {len(c.failures)} failures")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
