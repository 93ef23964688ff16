// SPDX-License-Identifier: MIT
// `wavefit info`: every field of device_limits with what it means, so that a user can see which
// number a diagnostic or a plan was computed from (like hipinfo, but complete and explained).
#include <string>   // texts
#include <variant>  // field values
#include <vector>   // field lists

#include <wavefit/detail/text.hpp>
#include <wavefit/device_limits.hpp>

#include "commands.hpp"
#include "device_selection.hpp"
#include "json_writer.hpp"
#include "table.hpp"

namespace wavefit::cli {
namespace {

// One field as JSON writes it (number, text or [x,y,z]) and as people read it.
struct described_field {
    std::string_view name;  // the C++ member name, also the JSON key
    std::variant<std::uint64_t, std::string, dims> value;
    std::string shown;
    std::string meaning;
};

std::string zero_means(std::uint64_t v, const char* what_zero_means) {
    return v == 0 ? "0 (" + std::string(what_zero_means) + ")" : detail::num(v);
}

std::string bytes_or_none(std::uint64_t v) { return v == 0 ? "0" : detail::bytes_text(v); }

// Every member of device_limits, in declaration order. Keep in step with device_limits.hpp: the
// CLI tests compare the JSON keys against the struct's fields.
std::vector<described_field> describe_fields(const device_limits& d) {
    const std::string cu(d.cu_word());
    const std::string wave(d.wave_word());
    const std::string shared(d.shared_word());
    const std::string simd = d.is_amd() ? "SIMD" : "SM sub-partition";
    std::vector<described_field> f;
    f.push_back({"name", std::string(d.name.view()), std::string(d.name.view()), "the device's name"});
    f.push_back({"arch", std::string(d.arch.view()), std::string(d.arch.view()),
                 "ISA the code objects must target (" + std::string(d.is_amd() ? "--offload-arch" : "-arch") + ")"});
    f.push_back({"vendor", std::string(to_string(d.vendor)), std::string(to_string(d.vendor)),
                 d.is_amd() ? "HIP on AMD: wavefronts, CUs, LDS" : "CUDA (or HIP on NVIDIA): warps, SMs, shared memory"});
    f.push_back({"wave_size", std::uint64_t{d.wave_size}, detail::num(d.wave_size),
                 "threads per " + wave + "; blocks should be a multiple of it" +
                     (d.is_amd() && d.wave_size == 64 ? " (not 32: CUDA warp-size assumptions break here)" : "")});
    f.push_back({"max_threads_per_block", std::uint64_t{d.max_threads_per_block}, detail::num(d.max_threads_per_block),
                 "block volume x*y*z limit (maxThreadsPerBlock)"});
    f.push_back({"max_block", d.max_block, detail::dims_text(d.max_block), "per-dimension block limits, in threads"});
    f.push_back(
        {"max_grid", d.max_grid,
         "(" + detail::limit_text(d.max_grid.x) + ", " + detail::num(d.max_grid.y) + ", " + detail::num(d.max_grid.z) + ")",
         "per-dimension grid limits, in blocks" +
             std::string(d.is_amd() ? " (HIP reports 65536 for y and z; 65535 is the portable bound)" : "")});
    f.push_back({"max_work_items_per_dimension", d.max_work_items_per_dimension,
                 d.max_work_items_per_dimension == 0 ? "0 (none)" : detail::limit_text(d.max_work_items_per_dimension),
                 d.max_work_items_per_dimension == 0 ? "no work-item limit beyond the grid limits"
                                                     : "AMD HSA dispatch: grid x block per dimension"});
    f.push_back({"compute_units", std::uint64_t{d.compute_units}, detail::num(d.compute_units),
                 cu + "s as multiProcessorCount reports them" +
                     std::string(d.is_amd() && d.wave_size == 32 ? " (RDNA: WGPs, each 2 CUs)" : "")});
    f.push_back({"shared_per_block", d.shared_per_block, bytes_or_none(d.shared_per_block),
                 shared + " a block can use without opting in"});
    f.push_back({"shared_per_block_optin", d.shared_per_block_optin, bytes_or_none(d.shared_per_block_optin),
                 d.shared_per_block_optin > d.shared_per_block
                     ? shared + " a block can use after cudaFuncSetAttribute(MaxDynamicSharedMemorySize)"
                     : "same as shared_per_block: there is no opt-in"});
    f.push_back({"shared_per_cu", d.shared_per_cu, bytes_or_none(d.shared_per_cu),
                 shared + " all resident blocks of one " + cu + " share"});
    f.push_back({"shared_reserved_per_block", std::uint64_t{d.shared_reserved_per_block},
                 bytes_or_none(d.shared_reserved_per_block),
                 d.shared_reserved_per_block == 0 ? "no per-block reservation" : "the driver reserves this much per block"});
    f.push_back({"shared_allocation_unit", std::uint64_t{d.shared_allocation_unit}, detail::num(d.shared_allocation_unit),
                 "per-block " + shared + " is allocated in units of this many bytes"});
    f.push_back({"simds_per_cu", std::uint64_t{d.simds_per_cu}, detail::num(d.simds_per_cu), simd + "s per " + cu});
    f.push_back({"max_waves_per_simd", std::uint64_t{d.max_waves_per_simd}, detail::num(d.max_waves_per_simd),
                 "resident " + wave + "s per " + simd + " (" + detail::num(d.max_waves_per_cu()) + " per " + cu + ", " +
                     detail::num(d.max_threads_per_cu()) + " threads)"});
    f.push_back({"max_blocks_per_cu", std::uint64_t{d.max_blocks_per_cu}, zero_means(d.max_blocks_per_cu, "not limited"),
                 "hardware block slots per " + cu});
    f.push_back({"registers_per_simd_lane", std::uint64_t{d.registers_per_simd_lane}, detail::num(d.registers_per_simd_lane),
                 "vector registers each lane of a " + simd + " owns" +
                     std::string(d.is_amd() ? " (VGPRs + AGPRs)" : " (65536 per SM)")});
    f.push_back({"register_granule", std::uint64_t{d.register_granule}, detail::num(d.register_granule),
                 "registers per thread are allocated in multiples of this"});
    f.push_back({"max_registers_per_thread", std::uint64_t{d.max_registers_per_thread},
                 zero_means(d.max_registers_per_thread, "not limited"), "the most registers one thread may use"});
    f.push_back({"max_registers_per_block", std::uint64_t{d.max_registers_per_block},
                 zero_means(d.max_registers_per_block, "none"), "registers one block may use in total"});
    f.push_back({"scalar_registers_per_simd", std::uint64_t{d.scalar_registers_per_simd},
                 zero_means(d.scalar_registers_per_simd, "SGPRs never limit"),
                 d.scalar_registers_per_simd == 0 ? "scalar registers do not limit residency"
                                                  : "SGPR budget per SIMD, shared by its resident waves"});
    f.push_back({"scalar_register_granule", std::uint64_t{d.scalar_register_granule}, detail::num(d.scalar_register_granule),
                 d.scalar_registers_per_simd == 0 ? "unused: scalar registers do not limit residency"
                                                  : "SGPRs per wave are allocated in multiples of this"});
    return f;
}

void write_device(json_writer& json, const device_limits& d) {
    json.begin_object();
    for (const described_field& field : describe_fields(d)) {
        json.key(field.name);
        if (const auto* n = std::get_if<std::uint64_t>(&field.value)) {
            json.value(*n);
        } else if (const auto* s = std::get_if<std::string>(&field.value)) {
            json.value(*s);
        } else {
            const dims& v = std::get<dims>(field.value);
            json.begin_array().value(v.x).value(v.y).value(v.z).end_array();
        }
    }
    json.end_object();
}

std::string device_table(const device_limits& d) {
    text_table table({align::left, align::left, align::left});
    table.add_row({"field", "value", "meaning"});
    for (const described_field& field : describe_fields(d))
        table.add_row({std::string(field.name), field.shown, field.meaning});
    return table.render();
}

std::string no_gpu_note(const device_catalog& catalog) {
    if (!catalog.has_backend())
        return "no GPU found: this wavefit was built without a GPU backend; use --preset NAME (wavefit presets lists them)";
    return "no GPU found: the " + std::string(catalog.backend_name()) +
           " runtime reports no device; use --preset NAME (wavefit presets lists them)";
}

}  // namespace

command_output run(const info_request& r) {
    const device_catalog& catalog = visible_devices();
    std::vector<selected_device> devices;
    if (r.device.given()) {
        devices.push_back(select_device(r.device, catalog));
    } else {
        for (int i = 0; i < catalog.count(); ++i)
            devices.push_back(select_device(device_choice{std::nullopt, static_cast<std::uint64_t>(i)}, catalog));
    }

    if (r.json) {
        json_writer json;
        json.begin_object().key("devices").begin_array();
        for (const selected_device& d : devices) write_device(json, d.limits);
        json.end_array();
        if (devices.empty()) json.key("note").value(no_gpu_note(catalog));
        json.end_object();
        return {json.finish(), {}, 0};
    }

    if (devices.empty()) return {no_gpu_note(catalog) + "\n", {}, 0};
    std::string text;
    for (std::size_t i = 0; i < devices.size(); ++i) {
        if (i > 0) text += "\n";
        text += devices[i].label + ": " + to_string(devices[i].limits) + "\n";
        text += device_table(devices[i].limits);
    }
    return {text, {}, 0};
}

}  // namespace wavefit::cli
