#include "oocg_stream.hpp"

#include <fcntl.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "ooc/core/error.hpp"

namespace ooc::detail {
namespace {

using namespace oocg;

constexpr std::uint64_t kStageBlocks = 16;  // 16 MiB staged, hashed in parallel, then written

std::filesystem::path temporary_name(const std::filesystem::path& path) {
  return path.string() + ".tmp-" + std::to_string(::getpid());
}

std::uint64_t total_bytes(const std::array<std::uint64_t, kHeaderSections>& bytes) {
  std::uint64_t total = 0;
  for (const std::uint64_t b : bytes)
    total += b;
  return total;
}

}  // namespace

OocgStream::OocgStream(const std::filesystem::path& path, const Header& header,
                       const std::array<std::uint64_t, kHeaderSections>& bytes)
    : path_(path),
      tmp_(temporary_name(path)),
      file_(tmp_, O_WRONLY | O_CREAT | O_TRUNC),
      header_(header),
      bytes_(bytes),
      stage_(Buffer<char>::allocate(kStageBlocks * kBlock)),
      progress_("writing " + path.filename().string(), total_bytes(bytes)) {
  // Where each section goes: aligned, in order after the header; an empty one at offset 0 with
  // the checksum of nothing. The file ends where the last one does, as write_oocg sizes it.
  std::uint64_t end = kHeaderBytes;
  for (int s = 0; s < kHeaderSections; ++s) {
    if (bytes_[s] == 0) {
      header_.sections[s] = {0, 0, combine({})};
      continue;
    }
    header_.sections[s] = {align_up(end), bytes_[s], 0};
    end = header_.sections[s].offset + bytes_[s];
  }
  header_.table = {0, 0, 0};
}

OocgStream::~OocgStream() {
  if (committed_) return;
  std::error_code ignored;
  std::filesystem::remove(tmp_, ignored);
}

void OocgStream::begin(SectionId id) {
  if (current_ >= 0) end_section();
  current_ = id;
  written_ = 0;
  staged_ = 0;
  digests_.clear();
}

void OocgStream::append(const void* data, std::uint64_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const std::uint64_t n = std::min(bytes, stage_.size() - staged_);
    std::memcpy(stage_.data() + staged_, p, n);
    staged_ += n;
    p += n;
    bytes -= n;
    if (staged_ == stage_.size()) flush_stage();
  }
}

// Hashes and writes the staged blocks in parallel, a block a task (the last may be short).
void OocgStream::flush_stage() {
  if (staged_ == 0) return;
  const std::uint64_t blocks = blocks_of(staged_);
  const std::size_t first = digests_.size();
  digests_.resize(first + blocks);
  const std::uint64_t at = header_.sections[current_].offset + written_;
  tbb::parallel_for(std::uint64_t{0}, blocks, [&](std::uint64_t b) {
    const std::uint64_t length = std::min(kBlock, staged_ - b * kBlock);
    digests_[first + b] = XXH3_64bits(stage_.data() + b * kBlock, length);
    write_all(file_.fd(), stage_.data() + b * kBlock, length, at + b * kBlock, tmp_);
  });
  progress_.advance(staged_);
  written_ += staged_;
  staged_ = 0;
}

void OocgStream::end_section() {
  flush_stage();
  Section& section = header_.sections[current_];
  if (written_ != section.bytes) {
    throw InvalidInput("section " + std::string(kSectionNames[current_]) + " got " +
                       std::to_string(written_) + " bytes, expected " +
                       std::to_string(section.bytes));
  }
  if (section.bytes != 0) section.checksum = combine(digests_);
  current_ = -1;
}

void OocgStream::commit() {
  if (current_ >= 0) end_section();
  header_.header_checksum = header_checksum(header_);
  write_all(file_.fd(), &header_, sizeof header_, 0, tmp_);
  sync_and_rename(file_.fd(), tmp_, path_);
  committed_ = true;
}

}  // namespace ooc::detail
