#pragma once
// Writing a .oocg file whose sections are made as they are produced (build_bounded), never whole
// in memory. Same layout, checksums and AtomicFile (temporary name, flush, rename) as write_oocg:
// each 1 MiB block is hashed as it goes out, the header goes last, and the file appears under its
// name only once complete. Each section is written through a Section of its own, and several may be
// open at once: a section's place follows from the lengths of the sections before it, so a length
// given as kLater must be known (its section closed) before a section after it opens.
#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "ooc/core/atomic_file.hpp"
#include "ooc/core/buffer.hpp"
#include "ooc/core/progress.hpp"
#include "oocg_layout.hpp"

namespace ooc::detail {

class OocgStream {
 public:
  // A section's length that is known only once it is written.
  static constexpr std::uint64_t kLater = UINT64_MAX;

  // `header` holds the counts, flags and version (sections without a table: no in-edges);
  // `bytes` each header section's length (0: absent; kLater), `later_estimate` what the kLater
  // ones may take, for the progress. Opens the AtomicFile. Throws IoError.
  OocgStream(const std::filesystem::path& path, const oocg::Header& header,
             const std::array<std::uint64_t, oocg::kHeaderSections>& bytes,
             std::uint64_t later_estimate = 0);
  OocgStream(const OocgStream&) = delete;
  OocgStream& operator=(const OocgStream&) = delete;

  // One section's bytes, in order, in pieces of any size: small pieces are staged, whole blocks
  // of a large one hashed and written straight from it, in parallel.
  class Section {
   public:
    void append(const void* data, std::uint64_t bytes);

   private:
    friend class OocgStream;
    Section(OocgStream& stream, oocg::SectionId id, std::uint64_t offset);
    void flush_stage();
    void write_blocks(const char* data, std::uint64_t bytes);

    OocgStream* stream_;
    oocg::SectionId id_;
    std::uint64_t offset_;
    std::uint64_t written_ = 0;  // out of the stage
    Buffer<char> stage_;         // a whole number of blocks
    std::uint64_t staged_ = 0;
    std::vector<std::uint64_t> digests_;
  };

  // Section `id`, at its place: every section before it has a length, given or closed.
  Section open(oocg::SectionId id);
  // Flushes the section and records its checksum; throws InvalidInput when its length is not the
  // one given (a kLater section's length is what it got).
  void close(Section& section);
  // Writes the header with every section's place and checksum, flushes and renames; every section
  // with a length must have been closed.
  void commit();

 private:
  std::filesystem::path path_;
  AtomicFile file_;  // removed unless commit() ran
  oocg::Header header_;
  std::array<std::uint64_t, oocg::kHeaderSections> bytes_;
  std::array<bool, oocg::kHeaderSections> closed_{};
  ProgressStep progress_;
};

}  // namespace ooc::detail
