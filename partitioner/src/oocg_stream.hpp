#pragma once
// Writing a .oocg file whose sections are made one after another, each appended in order as it
// is produced (build_bounded), never whole in memory. Same layout, checksums, temporary name,
// flush and rename as write_oocg: each 1 MiB block is hashed as it goes out, the header goes last,
// and the file appears under its name only once complete.
#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "ooc/core/buffer.hpp"
#include "ooc/core/progress.hpp"
#include "oocg_layout.hpp"

namespace ooc::detail {

class OocgStream {
 public:
  // `header` holds the counts, flags and version (sections without a table: no in-edges);
  // `bytes` each header section's length (0: absent). Opens PATH.tmp-PID. Throws IoError.
  OocgStream(const std::filesystem::path& path, const oocg::Header& header,
             const std::array<std::uint64_t, oocg::kHeaderSections>& bytes);
  // Removes the temporary file unless commit() ran.
  ~OocgStream();
  OocgStream(const OocgStream&) = delete;
  OocgStream& operator=(const OocgStream&) = delete;

  // Section `id` comes next; append() then gives exactly its length, in pieces of any size.
  void begin(oocg::SectionId id);
  void append(const void* data, std::uint64_t bytes);
  // Writes the header with every section's place and checksum, flushes and renames.
  void commit();

 private:
  void flush_stage();
  void end_section();

  std::filesystem::path path_, tmp_;
  oocg::File file_;
  oocg::Header header_;
  std::array<std::uint64_t, oocg::kHeaderSections> bytes_;
  int current_ = -1;
  std::uint64_t written_ = 0;  // of the current section, out of the stage
  Buffer<char> stage_;         // a whole number of blocks
  std::uint64_t staged_ = 0;
  std::vector<std::uint64_t> digests_;
  ProgressStep progress_;
  bool committed_ = false;
};

}  // namespace ooc::detail
