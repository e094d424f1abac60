#pragma once
// Helpers for the reader and writer tests: test data files, a temporary folder, edge lists as
// comparable triples, and the message of an expected exception.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "graph_util.hpp"
#include "ooc/partitioner/edge_list.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc::test {

inline std::filesystem::path data_file(std::string_view name) {
  return std::filesystem::path(OOC_TEST_DATA_DIR) / name;
}

inline std::string read_bytes(const std::filesystem::path& path) {
  std::string bytes(std::filesystem::file_size(path), '\0');
  std::ifstream(path, std::ios::binary)
      .read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

// A fresh folder under the system's temporary directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "ooc-readers-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) ADD_FAILURE() << "mkdtemp failed";
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const noexcept { return path_; }
  std::filesystem::path write(std::string_view name, std::string_view bytes) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream(file, std::ios::binary)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return file;
  }

 private:
  std::filesystem::path path_;
};

inline std::vector<Edge> file_order(const EdgeList& list) {
  std::vector<Edge> edges;
  edges.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i)
    edges.emplace_back(list.sources[i], list.targets[i],
                       list.weights.empty() ? 0u : list.weights[i]);
  return edges;
}

inline std::vector<Edge> sorted_edges(const EdgeList& list) {
  std::vector<Edge> edges = file_order(list);
  std::sort(edges.begin(), edges.end());
  return edges;
}

// The message of the exception of type E that `action` throws; a test failure otherwise.
template <class E, class Action>
std::string message_of(Action&& action) {
  try {
    action();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception of the expected type was thrown";
  return {};
}

}  // namespace ooc::test
