#pragma once
// Gzip input for the text readers, decompressed with zlib into memory before parsing.
#include <filesystem>
#include <span>
#include <string_view>

#include "ooc/core/buffer.hpp"

namespace ooc::detail {

// A ".gz" name or the gzip magic bytes (1f 8b) at the start.
bool is_gzip(const std::filesystem::path& path, std::span<const char> bytes) noexcept;

// Every member of a (possibly multi-member) gzip stream, concatenated. Throws IoError
// "<name>: corrupt or truncated gzip data".
Buffer<char> gunzip(std::span<const char> compressed, std::string_view name);

}  // namespace ooc::detail
