# SPDX-License-Identifier: MIT
"""Google Benchmark JSON results made up for the tests, in the format of Google Benchmark 1.7.1 (the
recorded files in data/ show that format as the library writes it): the benchmark names, counters
and context of wavefit_bench_zoo and wavefit_bench_launch, with figures shaped like the H200's.
"""

import random

TO_UNIT = {"ns": 1e9, "us": 1e6, "ms": 1e3, "s": 1.0}

H200_CONTEXT = {
    "date": "2026-12-01T10:00:00+00:00",
    "host_name": "h200",
    "executable": "build/bench/wavefit_bench_zoo",
    "num_cpus": 16,
    "library_build_type": "release",
    "wavefit_version": "0.1.0",
    "gpu_runtime": "CUDA",
    "device_name": "NVIDIA H200",
    "device_arch": "sm_90",
    "compute_units": "132",
    "wave_size": "32",
    "max_threads_per_cu": "2048",
    "memory_clock_khz": "3201000",
    "memory_bus_width_bits": "6016",
    "peak_bandwidth_gbps": "4813.5",
    "l2_cache_bytes": "62914560",
    "global_memory_bytes": "150754820096",
    "runtime_version": "13000",
    "driver_version": "13000",
}


def benchmark_entries(name, seconds, counters=None, suffix="manual_time", unit="us", aggregates=True):
    """One benchmark's entries: a repetition per value of `seconds` (time per iteration), then the
    mean/median/stddev/cv aggregates, as --benchmark_display_aggregates_only writes them."""
    run_name = f"{name}/{suffix}" if suffix else name
    counters = counters or {}
    out = []
    for i, t in enumerate(seconds):
        e = {"name": run_name, "family_index": 0, "per_family_instance_index": 0, "run_name": run_name,
             "run_type": "iteration", "repetitions": len(seconds), "repetition_index": i, "threads": 1,
             "iterations": 10, "real_time": t * TO_UNIT[unit], "cpu_time": t * TO_UNIT[unit] * 0.1, "time_unit": unit}
        e.update(counters)
        out.append(e)
    if aggregates and len(seconds) > 1:
        mean = sum(seconds) / len(seconds)
        s = sorted(seconds)
        med = s[len(s) // 2] if len(s) % 2 else 0.5 * (s[len(s) // 2 - 1] + s[len(s) // 2])
        sd = (sum((t - mean) ** 2 for t in seconds) / (len(seconds) - 1)) ** 0.5
        for agg, t in (("mean", mean), ("median", med), ("stddev", sd), ("cv", sd / mean)):
            e = {"name": f"{run_name}_{agg}", "family_index": 0, "per_family_instance_index": 0, "run_name": run_name,
                 "run_type": "aggregate", "repetitions": len(seconds), "threads": 1, "aggregate_name": agg,
                 "aggregate_unit": "percentage" if agg == "cv" else "time", "iterations": len(seconds),
                 "real_time": t if agg == "cv" else t * TO_UNIT[unit], "cpu_time": 0.0, "time_unit": unit}
            e.update(counters)
            out.append(e)
    return out


def error_entries(name, message, repetitions=5, suffix="manual_time"):
    run_name = f"{name}/{suffix}"
    return [{"name": run_name, "family_index": 0, "per_family_instance_index": 0, "run_name": run_name,
             "run_type": "iteration", "repetitions": repetitions, "repetition_index": i, "threads": 1,
             "error_occurred": True, "error_message": message, "iterations": 0, "real_time": 0.0, "cpu_time": 0.0,
             "time_unit": "us"} for i in range(repetitions)]


def repetitions(t, rng, spread=0.003, n=5):
    return [t * (1.0 + rng.uniform(-spread, spread)) for _ in range(n)]


def bandwidth_model(block, policy, peak):
    """GB/s shaped like docs/performance.md's H200 figures: small blocks starve the memory system with one item
    per thread; occupancy-saturated grids are flatter."""
    if policy == "cover":
        shape = {32: 0.40, 64: 0.60, 96: 0.80}.get(block, 1.0 - 0.00012 * abs(block - 256))
    else:
        shape = 0.965 - 0.01 * {"1x": 0, "2x": 1, "4x": 2}[policy] - (0.1 if block == 32 else 0.0)
    return peak * shape


def zoo_run(wavefit_factor=1.0, wavefit_block=256, seed=1, full_sweep_blocks=None, kernels=None, with_variants=True,
            with_regheavy=True, with_matrices=True, command="build/bench/wavefit_bench_zoo --benchmark_repetitions=5",
            tuned_factor=1.0, tuning_ms=150.0, with_external=True, external_tuned_factor=1.0):
    """A zoo run. wavefit_factor scales wavefit's bandwidth against hard-coded 256 (1.0: the same);
    tuned_factor scales the tuned strategy against the sweep's best (None: no tuned strategy);
    external_tuned_factor scales the external kernels' tuned strategy against their own configuration."""
    rng = random.Random(seed)
    benchmarks = []
    peaks = {"copy": 4240.0, "mul": 4230.0, "add": 4390.0, "triad": 4400.0, "dot": 4600.0}
    kernels = kernels or list(peaks)
    memcpy = {"2^28": 4253.0, "2^25": 4100.0}
    sizes = {"2^28": 2 ** 28, "2^25": 2 ** 25}
    for size, gbps in memcpy.items():
        b = 16.0 * sizes[size]
        benchmarks += benchmark_entries(f"memcpy/runtime/{size}", repetitions(b / gbps / 1e9, rng),
                                        {"bytes_per_launch": b, "elements_per_launch": float(sizes[size])})

    def add(kernel, strategy, size, gbps, block, grid, bytes_per_launch, elements, flops=None, extra=None):
        t = bytes_per_launch / gbps / 1e9 if flops is None else flops / gbps / 1e9
        launches = 8 if size == "2^25" else 1  # short kernels: several launches between the events
        counters = {"launches_per_iteration": float(launches), "bytes_per_launch": bytes_per_launch,
                    "elements_per_launch": elements, "block": float(block), "grid": float(grid),
                    "bytes_per_second": bytes_per_launch / t, "items_per_second": elements / t}
        counters.update(extra or {})
        if flops is not None:
            counters["flop_per_launch"] = flops
            counters["flop_per_second"] = flops / t
        benchmarks.extend(benchmark_entries(f"{kernel}/{strategy}/{size}", repetitions(t * launches, rng), counters))

    def stream_kernel(kernel, size, peak, blocks, variant=False):
        n = sizes[size]
        arrays = 3 if kernel.split("_")[0] in ("add", "triad") else 2
        b = 8.0 * arrays * n
        items = n // 2
        b256 = bandwidth_model(256, "cover", peak)
        add(kernel, "b256", size, b256, 256, items // 256, b, n)
        add(kernel, "b1024", size, bandwidth_model(1024, "cover", peak), 1024, items // 1024, b, n)
        add(kernel, "occupancy_api", size, bandwidth_model(1024, "cover", peak), 1024, items // 1024, b, n)
        add(kernel, "wavefit", size, b256 * wavefit_factor, wavefit_block, items // wavefit_block, b, n)
        if tuned_factor is not None and not variant:
            best = max(bandwidth_model(block, policy, peak) for block in blocks for policy in ("cover", "1x", "2x", "4x"))
            add(kernel, "tuned", size, best * tuned_factor, 512, items // 512, b, n, extra=tuning(24))
        for block in blocks:
            for policy in (("1x", "2x", "4x") if variant else ("cover", "1x", "2x", "4x")):
                grid = items // block if policy == "cover" else int(policy[0]) * (2048 // block) * 132
                add(kernel, f"sweep_b{block}_g{policy}", size, bandwidth_model(block, policy, peak), block, grid, b, n)

    def tuning(candidates):
        return {"tuning_ms": tuning_ms, "tuning_candidates": float(candidates), "tuned_vs_plan_measured": 1.01,
                "tuned_spread": 0.002}

    full = full_sweep_blocks or list(range(32, 1025, 32))
    coarse = [64, 128, 192, 256, 384, 512, 768, 1024]
    for kernel in kernels:
        stream_kernel(kernel, "2^28", peaks[kernel], full)
    for kernel in kernels:
        stream_kernel(kernel, "2^25", peaks[kernel] * 0.96, coarse)
    if with_variants:
        for kernel in kernels[:2]:
            stream_kernel(f"{kernel}_v1u1", "2^28", peaks[kernel] * 0.92, [256], variant=True)
            stream_kernel(f"{kernel}_v2u2", "2^28", peaks[kernel] * 1.0, [256], variant=True)
    if with_regheavy:
        n = 2 ** 24
        flops = 4608.0 * n
        for strategy, block, gflops in (("b256", 256, 30000.0), ("occupancy_api", 512, 29000.0),
                                        ("wavefit", wavefit_block, 30000.0 * wavefit_factor)):
            add("regheavy", strategy, "2^24", gflops, block, n // block, 8.0 * n, float(n), flops)
        if tuned_factor is not None:
            add("regheavy", "tuned", "2^24", 30000.0 * tuned_factor, 256, n // 256, 8.0 * n, float(n), flops, extra=tuning(12))
        benchmarks += error_entries("regheavy/b1024/2^24", "the timed launches: cudaErrorLaunchOutOfResources "
                                                           "(too many resources requested for launch)")
        for block in (64, 128, 256, 512):
            for policy, g in (("cover", 1.0), ("1x", 0.99), ("2x", 1.0), ("4x", 1.0)):
                add("regheavy", f"sweep_b{block}_g{policy}", "2^24", 30000.0 * g * (0.97 if block == 64 else 1.0), block,
                    n // block, 8.0 * n, float(n), flops)
    if with_matrices:
        for kernel, size, units, n in (("transpose", "16384x16384", 262144, 16384 * 16384),
                                       ("softmax", "32768x8192", 32768, 32768 * 8192)):
            b = 8.0 * n
            for strategy, block, gbps in (("b256", 256, 3600.0), ("b1024", 1024, 3300.0), ("occupancy_api", 1024, 3300.0),
                                          ("wavefit", wavefit_block, 3600.0 * wavefit_factor)):
                add(kernel, strategy, size, gbps, block, units, b, float(n))
            if tuned_factor is not None:
                add(kernel, "tuned", size, 3600.0 * tuned_factor, 256, units, b, float(n), extra=tuning(24))
            for block in coarse:
                for policy in ("cover", "1x", "2x", "4x"):
                    add(kernel, f"sweep_b{block}_g{policy}", size, 3600.0 * (0.99 if policy != "cover" else 1.0) *
                        (1.0 - 0.0001 * abs(block - 256)), block, units, b, float(n))
    if with_external:
        for kernel in ("copy", "mul", "add", "triad"):
            for size, n in (("2^28", 2 ** 28), ("2^25", 2 ** 25)):
                b = 8.0 * (3 if kernel in ("add", "triad") else 2) * n
                original = peaks[kernel] * 0.95
                add(f"babelstream_{kernel}", "original", size, original, 256, n // 1024, b, float(n))
                add(f"babelstream_{kernel}", "wavefit", size, original * 0.97, 256, n // 256, b, float(n))
                add(f"babelstream_{kernel}", "tuned", size, original * external_tuned_factor, 256, n // 1024, b, float(n),
                    extra=tuning(20))
    benchmarks += benchmark_entries("memcpy/runtime_end/2^28", repetitions(16.0 * 2 ** 28 / 4250.0 / 1e9, rng),
                                    {"bytes_per_launch": 16.0 * 2 ** 28, "elements_per_launch": float(2 ** 28)})
    context = dict(H200_CONTEXT, command_line=command,
                   stream_default_variants="copy/mul/add/triad v2u1, dot v2u4, sum v4u4")
    return {"context": context, "benchmarks": benchmarks}


def launch_run(overhead_pct=0.8, first_extra_us=12.0, seed=2, command="build/bench/wavefit_bench_launch --benchmark_repetitions=5"):
    rng = random.Random(seed)
    benchmarks = []
    first = {"raw": 30.0, "wavefit_config": 30.0 + first_extra_us, "wavefit_elements": 30.0 + first_extra_us}
    benchmarks += benchmark_entries("launch_first/wavefit_process/cold", [60e-6], {
        "latency_us": 60.0, "enqueue_us": 50.0, "raw_latency_us": 60.0 - first_extra_us, "raw_enqueue_us": 40.0,
        "get_device_properties_us": 400.0}, suffix="iterations:1/repeats:1/manual_time", aggregates=False)
    for form, med in first.items():
        benchmarks += benchmark_entries(f"launch_first/{form}/cold", [med * 1e-6], {
            "latency_median_us": med, "latency_max_us": med * 1.5, "latency_min_us": med * 0.8,
            "enqueue_median_us": med - 6.0, "enqueue_max_us": med * 1.4, "samples": 64.0},
            suffix="iterations:1/repeats:1/manual_time", unit="ns", aggregates=False)
    for kernel, raw_enqueue, raw_latency in (("empty", 4.1, 9.3), ("small", 4.3, 11.0)):
        wf = raw_enqueue * (1 + overhead_pct / 100)
        for form, enqueue in (("raw", raw_enqueue), ("wavefit_config", wf), ("wavefit_elements", wf), ("wavefit_tuned", wf)):
            benchmarks += benchmark_entries(f"launch_enqueue/{form}/{kernel}", repetitions(256 * enqueue * 1e-6 + 10e-6, rng),
                                            {"us_per_launch": enqueue, "launches_per_iteration": 256.0}, suffix="real_time",
                                            unit="us")
            benchmarks += benchmark_entries(f"launch_latency/{form}/{kernel}", repetitions(raw_latency * 1e-6, rng),
                                            {}, suffix="real_time", unit="us")
        for form in ("wavefit_config", "wavefit_elements", "wavefit_tuned"):
            for group in ("launch_enqueue_paired", "launch_latency_paired"):
                benchmarks += benchmark_entries(f"{group}/{form}/{kernel}", repetitions(2e-3, rng), {
                    "raw_us": raw_enqueue, "wavefit_us": wf, "overhead_pct": overhead_pct}, suffix="real_time", unit="us")
    context = dict(H200_CONTEXT, command_line=command, executable="build/bench/wavefit_bench_launch")
    return {"context": context, "benchmarks": benchmarks}
