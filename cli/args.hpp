// A small command-line parser: --name VALUE / --name=VALUE options, flags, positionals, and --help
// text generated from the declarations. Errors are UsageError with the offending argument.
#pragma once
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"

namespace hetsparse::cli {

class UsageError : public Error {
 public:
  using Error::Error;
};

class ArgParser {
 public:
  ArgParser(std::string program, std::string summary);
  ArgParser& flag(const std::string& name, const std::string& help);
  ArgParser& option(const std::string& name, const std::string& metavar, const std::string& help,
                    const std::string& default_value = "");
  ArgParser& positional(const std::string& name, const std::string& help, bool required = false);
  ArgParser& epilog(const std::string& text);

  // false when --help was given (the help text was printed to stdout).
  bool parse(int argc, char** argv);

  bool has(const std::string& name) const;  // flag set, option given, or positional present
  std::string get(const std::string& name) const;
  long get_int(const std::string& name) const;
  double get_double(const std::string& name) const;  // a finite number
  // get_int / get_double, UsageError unless lo <= value <= hi.
  long get_int_in(const std::string& name, long lo, long hi) const;
  double get_double_in(const std::string& name, double lo, double hi) const;
  std::string help() const;
  const std::string& program() const { return program_; }

 private:
  struct Opt {
    std::string name, metavar, help, value;
    bool is_flag = false, given = false;
  };
  struct Pos {
    std::string name, help, value;
    bool required = false, given = false;
  };
  const Opt& find(const std::string& name) const;
  std::string program_, summary_, epilog_;
  std::vector<Opt> opts_;
  std::vector<Pos> pos_;
};

// The non-empty items of a separated option value ("a,b,,c" -> a, b, c).
std::vector<std::string> split_list(const std::string& value, char separator);

// What a tool's main prints on stderr for the exception that ends it: a UsageError as it is (its
// message names the program already), anything else after "program: error: ". Returns 1, the status.
int report_failure(const std::string& program, const std::exception& e);

}  // namespace hetsparse::cli
