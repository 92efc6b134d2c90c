// Buffered line reading and text writing through zlib's gzFile, which handles plain and
// gzip-compressed files alike. Internal to the Matrix Market code.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <zlib.h>

namespace hetsparse {

// Hands out one line at a time from a large read buffer; no per-line allocation.
class GzLineReader {
 public:
  // Throws ParseError(path, 0, ...) if the file cannot be opened.
  explicit GzLineReader(const std::string& path);
  ~GzLineReader();
  GzLineReader(const GzLineReader&) = delete;
  GzLineReader& operator=(const GzLineReader&) = delete;

  // The next line, without "\n" or "\r\n", NUL-terminated in place and valid until the next
  // call; false at end of file. Throws ParseError if reading or decompression fails.
  bool next(const char*& line, std::size_t& length);
  // 1-based number of the line last returned (the count of lines read so far).
  std::int64_t line_number() const { return line_number_; }
  // The line last returned ended the file without a newline (a plain file cut short shows so).
  bool last_line_unterminated() const { return unterminated_; }
  // An upper bound on the text the file can hold: a plain regular file's size, 1032 times a
  // compressed one's (deflate's largest ratio); no bound (UINT64_MAX) for pipes and devices.
  std::uint64_t max_text_bytes() const { return max_text_bytes_; }
  const std::string& path() const { return path_; }

 private:
  bool refill();

  std::string path_;
  gzFile file_ = nullptr;
  std::vector<char> buffer_;
  std::size_t chunk_ = 0;            // bytes asked of zlib at a time (smaller for small files)
  std::size_t begin_ = 0, end_ = 0;  // unread bytes are buffer_[begin_, end_)
  bool at_eof_ = false;
  bool unterminated_ = false;
  std::int64_t line_number_ = 0;
  std::uint64_t max_text_bytes_ = UINT64_MAX;
};

// Collects text in memory and writes it in large blocks, compressed or not.
class GzTextWriter {
 public:
  // Throws RuntimeFailure if the file cannot be created.
  GzTextWriter(const std::string& path, bool compress);
  ~GzTextWriter();  // closes without reporting errors if close() was not called
  GzTextWriter(const GzTextWriter&) = delete;
  GzTextWriter& operator=(const GzTextWriter&) = delete;

  void write(const char* text, std::size_t length);
  void write(const std::string& text) { write(text.data(), text.size()); }
  // Flushes and closes; throws RuntimeFailure on any write error (disk full, ...).
  void close();

 private:
  void flush();

  std::string path_;
  gzFile file_ = nullptr;
  std::string pending_;
};

}  // namespace hetsparse
