// zlib-backed file access for the Matrix Market reader and writer.
#include "sparse/gz_file.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "hetsparse/error.hpp"

namespace hetsparse {
namespace {

constexpr std::size_t kReadChunk = std::size_t{1} << 22;   // bytes asked of gzread at a time
constexpr std::size_t kWriteChunk = std::size_t{1} << 22;  // bytes collected before gzwrite
constexpr unsigned kZlibBuffer = 1u << 20;                 // zlib's own buffer (default is 8 KiB)
constexpr std::uint64_t kDeflateMaxRatio = 1032;           // deflate expands at most ~1032:1

std::string zlib_message(gzFile file) {
  int code = Z_OK;
  const char* msg = gzerror(file, &code);
  if (code == Z_ERRNO) return std::strerror(errno);
  return msg != nullptr ? msg : "unknown zlib error";
}

}  // namespace

GzLineReader::GzLineReader(const std::string& path) : path_(path) {
  errno = 0;
  file_ = gzopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    throw ParseError(path, 0, std::string("cannot open file: ") +
                                  (errno != 0 ? std::strerror(errno) : "out of memory"));
  }
  // Small files get small buffers: many of them are read (tests, the fuzzer), and 5 MB of buffers
  // for a 100-byte file cost more than reading it.
  struct stat st {};
  const bool regular = ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  const auto size = regular ? static_cast<std::uint64_t>(st.st_size) : UINT64_MAX;
  gzbuffer(file_, static_cast<unsigned>(std::clamp<std::uint64_t>(size, 8192, kZlibBuffer)));
  if (regular) max_text_bytes_ = gzdirect(file_) ? size : size * kDeflateMaxRatio;
  chunk_ = static_cast<std::size_t>(std::clamp<std::uint64_t>(max_text_bytes_, 4096, kReadChunk));
  buffer_.resize(chunk_ + 1);  // + 1: room for the NUL after an unterminated last line
}

GzLineReader::~GzLineReader() {
  if (file_ != nullptr) gzclose(file_);
}

// Moves the unread tail to the front, grows the buffer if one line fills it, and reads more.
// Returns false once the file is exhausted.
bool GzLineReader::refill() {
  if (at_eof_) return false;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buffer_.size() - 1 - end_ < chunk_ / 2) buffer_.resize(buffer_.size() * 2);
  const std::size_t room = buffer_.size() - 1 - end_;
  const unsigned ask = room > UINT_MAX ? UINT_MAX : static_cast<unsigned>(room);
  const int got = gzread(file_, buffer_.data() + end_, ask);
  if (got < 0) {
    throw ParseError(path_, line_number_ + 1, "cannot read file: " + zlib_message(file_));
  }
  if (got == 0) {
    // zlib reports a gzip stream cut short only through gzerror, after handing out what it had.
    int code = Z_OK;
    gzerror(file_, &code);
    if (code == Z_BUF_ERROR) {
      throw ParseError(path_, line_number_ + 1,
                       "the compressed data ends early: the .gz file is truncated (an interrupted download or copy?)");
    }
    at_eof_ = true;
    return false;
  }
  end_ += static_cast<std::size_t>(got);
  return true;
}

bool GzLineReader::next(const char*& line, std::size_t& length) {
  std::size_t scanned = begin_;  // buffered bytes before this hold no '\n'
  for (;;) {
    const void* newline = std::memchr(buffer_.data() + scanned, '\n', end_ - scanned);
    std::size_t stop = 0, resume = 0;  // the line ends at stop; the next one starts at resume
    if (newline != nullptr) {
      stop = static_cast<std::size_t>(static_cast<const char*>(newline) - buffer_.data());
      resume = stop + 1;
    } else {
      const std::size_t unread = end_ - begin_;
      if (refill()) {
        scanned = begin_ + unread;  // refill() moved the unread tail to the front
        continue;
      }
      if (begin_ == end_) return false;
      stop = resume = end_;  // unterminated last line; buffer_ keeps a spare byte there for the NUL
    }
    unterminated_ = newline == nullptr;
    char* first = buffer_.data() + begin_;
    char* last = buffer_.data() + stop;
    begin_ = resume;
    if (last > first && last[-1] == '\r') --last;
    *last = '\0';
    line = first;
    length = static_cast<std::size_t>(last - first);
    ++line_number_;
    return true;
  }
}

GzTextWriter::GzTextWriter(const std::string& path, bool compress) : path_(path) {
  errno = 0;
  // Level 1: large matrices compress ~2.5x at several times the speed of the default level;
  // "T" writes a plain file through the same interface.
  file_ = gzopen(path.c_str(), compress ? "wb1" : "wbT");
  if (file_ == nullptr) {
    throw RuntimeFailure("cannot create " + path + ": " + (errno != 0 ? std::strerror(errno) : "out of memory"));
  }
  gzbuffer(file_, kZlibBuffer);
  pending_.reserve(kWriteChunk + 256);
}

GzTextWriter::~GzTextWriter() {
  if (file_ != nullptr) gzclose(file_);
}

void GzTextWriter::write(const char* text, std::size_t length) {
  pending_.append(text, length);
  if (pending_.size() >= kWriteChunk) flush();
}

void GzTextWriter::flush() {
  std::size_t done = 0;
  while (done < pending_.size()) {
    const std::size_t left = pending_.size() - done;
    const unsigned ask = left > (1u << 30) ? (1u << 30) : static_cast<unsigned>(left);
    const int wrote = gzwrite(file_, pending_.data() + done, ask);
    if (wrote <= 0) throw RuntimeFailure("cannot write " + path_ + ": " + zlib_message(file_));
    done += static_cast<std::size_t>(wrote);
  }
  pending_.clear();
}

void GzTextWriter::close() {
  flush();
  const int rc = gzclose(file_);
  file_ = nullptr;
  if (rc != Z_OK) {
    throw RuntimeFailure("cannot finish writing " + path_ + ": " +
                         (rc == Z_ERRNO ? std::strerror(errno) : "zlib error " + std::to_string(rc)));
  }
}

}  // namespace hetsparse
