// SPDX-License-Identifier: MIT
// Corruption test for the code object reader: for each sample file given on the command line, many
// damaged copies are made in memory (truncations at every header boundary and at regular steps, every
// header field set to hostile values, bytes flipped at regular steps and throughout the metadata,
// msgpack lengths made huge, metadata nested deeply, headers pointed at overlapping regions, random
// damage from a fixed seed) and each must either read or throw wavefit::detail::code_object_error with a
// one-line message — never crash, read out of bounds (run under -DWAVEFIT_SANITIZE=address,undefined),
// throw anything else, or take long (each read's CPU time is held to --max-ms).
//
// The landmarks (where headers, fields and metadata lie) are found in the intact file with wavefit's
// own detail readers; that the intact files read correctly is test_code_objects.py's job.
#include <wavefit/code_object.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace d = wavefit::detail;
using bytes = std::vector<std::uint8_t>;

struct field {
    std::uint64_t offset;
    unsigned width;  // 1, 2, 4 or 8 bytes, little-endian
};

struct landmarks {
    std::vector<field> fields;                                      // header fields worth setting to hostile values
    std::vector<std::uint64_t> boundaries;                          // starts and ends of headers, tables, sections, entries
    std::vector<std::pair<std::uint64_t, std::uint64_t>> metadata;  // msgpack documents (offset, size)
    std::vector<std::pair<std::uint64_t, std::uint64_t>> section_tables;  // (offset, count) of ELF section headers
    std::vector<std::pair<std::uint64_t, std::uint64_t>> bundles;         // (offset, entries) of offload bundles
};

std::uint64_t offset_in(const d::byte_view& file, const void* p) {
    return static_cast<std::uint64_t>(static_cast<const std::uint8_t*>(p) - file.data);
}

void find_in_bundles(const d::byte_view& file, d::byte_view region, landmarks& lm);

void find_in_elf(const d::byte_view& file, d::byte_view elf, landmarks& lm) {
    const d::elf_file f = d::read_elf(elf);
    const std::uint64_t b = elf.base;
    static const field header[] = {{4, 1},  {5, 1},  {16, 2}, {18, 2}, {32, 8}, {40, 8},
                                   {52, 2}, {54, 2}, {56, 2}, {58, 2}, {60, 2}, {62, 2}};
    for (const field& h : header) lm.fields.push_back({b + h.offset, h.width});
    lm.boundaries.insert(lm.boundaries.end(), {b, b + 16, b + 64, b + elf.size});
    const std::uint64_t phoff = elf.u64(32, "e_phoff"), shoff = elf.u64(40, "e_shoff");
    for (std::uint64_t i = 0; i < f.segments.size(); ++i) {
        const std::uint64_t at = b + phoff + i * 56;
        for (const field& p : {field{0, 4}, field{8, 8}, field{32, 8}, field{48, 8}})
            lm.fields.push_back({at + p.offset, p.width});
        lm.boundaries.push_back(at);
    }
    lm.section_tables.push_back({b + shoff, f.sections.size()});
    for (std::uint64_t i = 0; i < f.sections.size(); ++i) {
        const std::uint64_t at = b + shoff + i * 64;
        for (const field& s : {field{0, 4}, field{4, 4}, field{24, 8}, field{32, 8}, field{48, 8}})
            lm.fields.push_back({at + s.offset, s.width});
        lm.boundaries.insert(lm.boundaries.end(),
                             {at, b + f.sections[i].offset, b + f.sections[i].offset + f.sections[i].size});
    }
    if (f.machine == d::elf_machine_amdgpu) {
        d::for_each_note(f, [&](const d::elf_note& n) {
            const std::uint64_t note = offset_in(file, n.owner.data()) - 12;
            for (const field& h : {field{0, 4}, field{4, 4}, field{8, 4}}) lm.fields.push_back({note + h.offset, h.width});
            lm.boundaries.insert(lm.boundaries.end(), {note, n.desc.base, n.desc.base + n.desc.size});
            if (n.owner == "AMDGPU") lm.metadata.push_back({n.desc.base, n.desc.size});
        });
        return;
    }
    for (const d::elf_section& s : f.sections)
        if (s.name == ".hip_fatbin") find_in_bundles(file, f.contents(s, ".hip_fatbin"), lm);
}

void find_in_bundles(const d::byte_view& file, d::byte_view region, landmarks& lm) {
    d::for_each_offload_bundle(region, "bundles", [&](const d::offload_bundle& bundle) {
        if (bundle.entries.empty()) return;
        const std::uint64_t start = offset_in(file, bundle.entries[0].id.data()) - 56;  // magic, count, 3 fields
        lm.fields.push_back({start + 24, 8});
        lm.bundles.push_back({start, bundle.entries.size()});
        lm.boundaries.insert(lm.boundaries.end(), {start, start + 24, start + 32, start + bundle.extent});
        for (const d::offload_bundle_entry& e : bundle.entries) {
            const std::uint64_t header = offset_in(file, e.id.data()) - 24;
            for (const field& h : {field{0, 8}, field{8, 8}, field{16, 8}})
                lm.fields.push_back({header + h.offset, h.width});
            lm.boundaries.insert(lm.boundaries.end(), {header, e.contents.base, e.contents.base + e.contents.size});
            if (e.contents.starts_with(d::elf_magic)) find_in_elf(file, e.contents, lm);
        }
    });
}

landmarks find_landmarks(const bytes& data) {
    landmarks lm;
    const d::byte_view file{data.data(), data.size(), 0};
    if (file.starts_with(d::offload_bundle_magic))
        find_in_bundles(file, file, lm);
    else
        find_in_elf(file, file, lm);
    std::sort(lm.boundaries.begin(), lm.boundaries.end());
    lm.boundaries.erase(std::unique(lm.boundaries.begin(), lm.boundaries.end()), lm.boundaries.end());
    return lm;
}

struct run_stats {
    std::uint64_t runs = 0, accepted = 0, rejected = 0, failures = 0;
    double max_ms = 0, total_ms = 0;
    std::string slowest;
};

struct harness {
    std::string file;
    double limit_ms;
    run_stats stats;

    // Reads `input` (its own allocation, exactly its size, so ASan sees any read past the end).
    void check(const bytes& input, const std::string& what) {
        // CPU time of this (single-threaded) process: a loaded machine does not make a read "slow".
        const std::clock_t start = std::clock();
        std::string problem;
        try {
            (void)wavefit::detail::read_kernels(input.data(), input.size());
            ++stats.accepted;
        } catch (const wavefit::detail::code_object_error& e) {
            ++stats.rejected;
            const std::string_view message = e.what();
            if (message.empty() || message.find('\n') != std::string_view::npos)
                problem = "error message is not one non-empty line: '" + std::string(message) + "'";
        } catch (const std::exception& e) {
            problem = std::string("unexpected exception (not code_object_error): ") + e.what();
        } catch (...) {
            problem = "unexpected non-standard exception";
        }
        const double ms = 1000.0 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
        ++stats.runs;
        stats.total_ms += ms;
        if (ms > stats.max_ms) {
            stats.max_ms = ms;
            stats.slowest = what;
        }
        if (ms > limit_ms) problem += (problem.empty() ? "" : "; ") + std::string("took ") + std::to_string(ms) + " ms";
        if (!problem.empty()) {
            ++stats.failures;
            if (stats.failures <= 20) std::printf("FAIL %s [%s]: %s\n", file.c_str(), what.c_str(), problem.c_str());
        }
    }
};

void put(bytes& b, std::uint64_t offset, unsigned width, std::uint64_t value) {
    for (unsigned i = 0; i < width && offset + i < b.size(); ++i)
        b[static_cast<std::size_t>(offset + i)] = static_cast<std::uint8_t>(value >> (8 * i));
}

std::uint64_t get(const bytes& b, std::uint64_t offset, unsigned width) {
    std::uint64_t v = 0;
    for (unsigned i = width; i-- > 0;)
        if (offset + i < b.size()) v = (v << 8) | b[static_cast<std::size_t>(offset + i)];
    return v;
}

bool corrupt_file(const std::string& path, double limit_ms) {
    std::ifstream in(path, std::ios::binary);
    const bytes original((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    harness h{path, limit_ms, {}};
    if (original.empty()) {
        std::printf("FAIL %s: cannot read\n", path.c_str());
        return false;
    }
    const landmarks lm = find_landmarks(original);
    const std::uint64_t size = original.size();
    bytes work = original;
    const std::string hex_size = d::hex(size);

    // The intact file must read.
    try {
        (void)wavefit::detail::read_kernels(original.data(), original.size());
    } catch (const std::exception& e) {
        std::printf("FAIL %s: the intact file does not read: %s\n", path.c_str(), e.what());
        return false;
    }

    // 1. Truncations: at and around every boundary, and every size/512 bytes.
    std::vector<std::uint64_t> cuts;
    for (const std::uint64_t boundary : lm.boundaries)
        for (const std::uint64_t delta : {0, 1, 2, 4, 8}) cuts.insert(cuts.end(), {boundary - delta, boundary + delta});
    for (std::uint64_t at = 0; at < size; at += std::max<std::uint64_t>(1, size / 512)) cuts.push_back(at);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (const std::uint64_t cut : cuts) {
        if (cut >= size) continue;
        const bytes truncated(original.begin(), original.begin() + static_cast<std::ptrdiff_t>(cut));
        h.check(truncated, "truncated to " + d::hex(cut));
    }

    // 2. Every header field set to hostile values: zero, all ones, the sign bit, just past the end
    //    of the file, the file size, small changes of the real value.
    for (const field& f : lm.fields) {
        const std::uint64_t real = get(original, f.offset, f.width);
        const std::uint64_t values[] = {0,        ~std::uint64_t{0}, std::uint64_t{1} << (8 * f.width - 1),
                                        size,     size + 1,          size - 1,
                                        real + 1, real - 1,          real ^ 0x80,
                                        real * 2, real + size / 2};
        for (const std::uint64_t v : values) {
            put(work, f.offset, f.width, v);
            h.check(work, "field at " + d::hex(f.offset) + " set to " + d::hex(v));
            put(work, f.offset, f.width, real);
        }
    }

    // 3. Every byte of the metadata flipped, and each position made a huge msgpack container or
    //    string, an invalid type byte, or a deep nest.
    for (const auto& [start, length] : lm.metadata) {
        for (std::uint64_t at = start; at < start + length; ++at) {
            const std::uint8_t saved[5] = {
                work[at], at + 1 < size ? work[at + 1] : std::uint8_t{0}, at + 2 < size ? work[at + 2] : std::uint8_t{0},
                at + 3 < size ? work[at + 3] : std::uint8_t{0}, at + 4 < size ? work[at + 4] : std::uint8_t{0}};
            const auto restore = [&] {
                for (unsigned i = 0; i < 5; ++i)
                    if (at + i < size) work[at + i] = saved[i];
            };
            work[at] ^= 0xff;
            h.check(work, "metadata byte at " + d::hex(at) + " flipped");
            restore();
            if ((at - start) % 4 != 0) continue;  // the header rewrites below on every fourth byte
            for (const std::uint8_t tag : {std::uint8_t{0xdb}, std::uint8_t{0xdd}, std::uint8_t{0xdf}, std::uint8_t{0xc1}}) {
                work[at] = tag;
                for (unsigned i = 1; i < 5; ++i)
                    if (at + i < size) work[at + i] = 0xff;
                h.check(work, "metadata at " + d::hex(at) + " made huge / invalid with tag " + d::hex(tag));
                restore();
            }
        }
        // Deeply nested arrays under an unknown key, and in place of the kernel list.
        for (const std::string_view key : {std::string_view("x"), std::string_view("amdhsa.kernels")}) {
            bytes nested = original;
            std::uint64_t at = start;
            nested[at++] = 0x81;
            nested[at++] = static_cast<std::uint8_t>(0xa0 | key.size());
            for (const char c : key) nested[at++] = static_cast<std::uint8_t>(c);
            while (at < start + length) nested[at++] = 0x91;
            h.check(nested, "metadata nested " + std::to_string(length) + " deep under '" + std::string(key) + "'");
        }
    }

    // 4. Overlap: every section header of a table copied from one section (many sections over the
    //    same bytes), and the table pointed at the ELF header itself.
    for (const auto& [table, count] : lm.section_tables) {
        for (std::uint64_t source = 0; source < count; source += std::max<std::uint64_t>(1, count / 8)) {
            bytes overlapped = original;
            for (std::uint64_t i = 0; i < count; ++i)
                std::memcpy(&overlapped[table + i * 64], &original[table + source * 64], 64);
            h.check(overlapped,
                    "all section headers at " + d::hex(table) + " copied from section " + std::to_string(source));
        }
    }
    //    Every bundle entry pointed at the largest entry's bytes.
    for (const auto& [bundle, count] : lm.bundles) {
        std::uint64_t largest = 0, best = 0;
        std::uint64_t header = bundle + 32;
        std::vector<std::uint64_t> headers;
        for (std::uint64_t i = 0; i < count; ++i) {
            headers.push_back(header);
            if (get(original, header + 8, 8) > best) {
                best = get(original, header + 8, 8);
                largest = header;
            }
            header += 24 + get(original, header + 16, 8);
        }
        bytes overlapped = original;
        for (const std::uint64_t e : headers) std::memcpy(&overlapped[e], &original[largest], 16);
        h.check(overlapped, "all entries of the bundle at " + d::hex(bundle) + " share one code object");
    }

    // 5. Every size/4096-th byte flipped, then random damage (1 to 8 bytes) from a fixed seed.
    for (std::uint64_t at = 0; at < size; at += std::max<std::uint64_t>(1, size / 4096)) {
        work[at] ^= 0xff;
        h.check(work, "byte at " + d::hex(at) + " flipped");
        work[at] = original[at];
    }
    std::mt19937_64 rng(0x5eed);
    for (int round = 0; round < 1000; ++round) {
        bytes damaged = original;
        const int n = 1 + static_cast<int>(rng() % 8);
        for (int i = 0; i < n; ++i) {
            // Half of the damage lands on header fields, half anywhere.
            const std::uint64_t at =
                (i % 2 == 0 && !lm.fields.empty()) ? lm.fields[rng() % lm.fields.size()].offset + rng() % 8 : rng() % size;
            if (at < size) damaged[at] = static_cast<std::uint8_t>(rng());
        }
        h.check(damaged, "random damage round " + std::to_string(round));
    }

    const run_stats& s = h.stats;
    std::printf(
        "%s (%s bytes, %zu fields, %zu boundaries): %llu corrupted copies, %llu read, %llu rejected, "
        "%llu failures; slowest read %.2f ms (%s), %.0f ms in all\n",
        path.c_str(), hex_size.c_str(), lm.fields.size(), lm.boundaries.size(), static_cast<unsigned long long>(s.runs),
        static_cast<unsigned long long>(s.accepted), static_cast<unsigned long long>(s.rejected),
        static_cast<unsigned long long>(s.failures), s.max_ms, s.slowest.c_str(), s.total_ms);
    return s.failures == 0;
}

}  // namespace

int main(int argc, char** argv) {
    double limit_ms = 1000;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--max-ms" && i + 1 < argc)
            limit_ms = std::atof(argv[++i]);
        else
            files.emplace_back(arg);
    }
    if (files.empty()) {
        std::fputs("usage: corrupt_code_objects [--max-ms MS] FILE...\n", stderr);
        return 2;
    }
    bool ok = true;
    for (const std::string& f : files) ok = corrupt_file(f, limit_ms) && ok;
    return ok ? 0 : 1;
}
