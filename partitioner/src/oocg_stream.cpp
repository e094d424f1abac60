#include "oocg_stream.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "ooc/core/error.hpp"

namespace ooc::detail {
namespace {

using namespace oocg;

constexpr std::uint64_t kStageBlocks = 4;  // staged, hashed in parallel, then written

std::uint64_t total_bytes(const std::array<std::uint64_t, kHeaderSections>& bytes,
                          std::uint64_t later_estimate) {
  std::uint64_t total = 0;
  for (const std::uint64_t b : bytes)
    total += b == OocgStream::kLater ? later_estimate : b;
  return total;
}

}  // namespace

OocgStream::OocgStream(const std::filesystem::path& path, const Header& header,
                       const std::array<std::uint64_t, kHeaderSections>& bytes,
                       std::uint64_t later_estimate)
    : path_(path),
      file_(path),
      header_(header),
      bytes_(bytes),
      progress_("writing " + path.filename().string(), total_bytes(bytes, later_estimate)) {
  // An empty section lies at offset 0 with the checksum of nothing; the others are placed as they
  // open, aligned, in order after the header, so the file ends where the last one does, as
  // write_oocg sizes it.
  for (int s = 0; s < kHeaderSections; ++s)
    header_.sections[s] = {0, 0, combine({})};
  header_.table = {0, 0, 0};
}

OocgStream::Section OocgStream::open(SectionId id) {
  // Every non-empty section up to this one takes its place (the same each time).
  std::uint64_t end = kHeaderBytes;
  for (int s = 0; s <= id; ++s) {
    if (s < id && bytes_[s] == kLater) {
      throw std::logic_error("section " + std::string(kSectionNames[id]) + " opened before " +
                             std::string(kSectionNames[s]) + " has a length");
    }
    if (bytes_[s] == 0) continue;
    header_.sections[s].offset = align_up(end);
    end = header_.sections[s].offset + bytes_[s];
  }
  return Section(*this, id, header_.sections[id].offset);
}

void OocgStream::close(Section& section) {
  section.flush_stage();
  const SectionId id = section.id_;
  if (bytes_[id] == kLater) bytes_[id] = section.written_;
  if (section.written_ != bytes_[id]) {
    throw InvalidInput("section " + std::string(kSectionNames[id]) + " got " +
                       std::to_string(section.written_) + " bytes, expected " +
                       std::to_string(bytes_[id]));
  }
  header_.sections[id] =
      bytes_[id] == 0 ? oocg::Section{0, 0, combine({})}
                      : oocg::Section{section.offset_, bytes_[id], combine(section.digests_)};
  closed_[id] = true;
}

void OocgStream::commit() {
  for (int s = 0; s < kHeaderSections; ++s) {
    if (bytes_[s] != 0 && !closed_[s]) {
      throw std::logic_error("section " + std::string(kSectionNames[s]) + " was not written");
    }
  }
  header_.header_checksum = header_checksum(header_);
  write_all(file_.fd(), &header_, sizeof header_, 0, path_);
  file_.commit();
}

OocgStream::Section::Section(OocgStream& stream, SectionId id, std::uint64_t offset)
    : stream_(&stream),
      id_(id),
      offset_(offset),
      stage_(Buffer<char>::allocate(kStageBlocks * kBlock)) {}

void OocgStream::Section::append(const void* data, std::uint64_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    if (staged_ == 0 && bytes >= stage_.size()) {  // whole blocks straight from the caller's
      const std::uint64_t n = bytes / kBlock * kBlock;
      write_blocks(p, n);
      p += n;
      bytes -= n;
      continue;
    }
    const std::uint64_t n = std::min(bytes, stage_.size() - staged_);
    std::memcpy(stage_.data() + staged_, p, n);
    staged_ += n;
    p += n;
    bytes -= n;
    if (staged_ == stage_.size()) flush_stage();
  }
}

void OocgStream::Section::flush_stage() {
  write_blocks(stage_.data(), staged_);
  staged_ = 0;
}

// Hashes and writes blocks in parallel, a block a task (the last may be short).
void OocgStream::Section::write_blocks(const char* data, std::uint64_t bytes) {
  if (bytes == 0) return;
  const std::uint64_t blocks = blocks_of(bytes);
  const std::size_t first = digests_.size();
  digests_.resize(first + blocks);
  const std::uint64_t at = offset_ + written_;
  tbb::parallel_for(std::uint64_t{0}, blocks, [&](std::uint64_t b) {
    const std::uint64_t length = std::min(kBlock, bytes - b * kBlock);
    digests_[first + b] = XXH3_64bits(data + b * kBlock, length);
    write_all(stream_->file_.fd(), data + b * kBlock, length, at + b * kBlock, stream_->path_);
  });
  stream_->progress_.advance(bytes);
  written_ += bytes;
}

}  // namespace ooc::detail
