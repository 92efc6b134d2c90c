// Where tests write their files: a folder of the build tree, never /tmp (runs on a shared machine
// must not leave files behind, and a fresh build tree starts clean).
#pragma once
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace hetsparse::test {

// $HETSPARSE_TEST_OUTPUT_DIR when set (the GPU bundle runs the tests away from their build tree),
// else the build tree's folder compiled in (tests/CMakeLists.txt: <build>/tests/output), else, if
// that cannot be created, ./hetsparse-test-output. Created on first use; ends with '/' as gtest's
// temporary folder name does.
inline std::string test_output_dir() {
  static const std::string dir = [] {
    const char* env = std::getenv("HETSPARSE_TEST_OUTPUT_DIR");
    std::filesystem::path d = env && *env ? env : HETSPARSE_TEST_OUTPUT_DIR;
    std::error_code ec;
    std::filesystem::create_directories(d, ec);
    if (ec) {
      d = std::filesystem::current_path() / "hetsparse-test-output";
      std::filesystem::create_directories(d);
    }
    return d.string() + "/";
  }();
  return dir;
}

}  // namespace hetsparse::test
