// The name tables of enumerations (sparse/named_values.hpp): both directions, aliases, and the refusal
// of an unknown name listing the known ones.
#include <gtest/gtest.h>

#include <string>

#include "hetsparse/error.hpp"
#include "sparse/named_values.hpp"

namespace hetsparse::test {
namespace {

enum class Colour { Red, Green, Blue, Unnamed };
constexpr Named<Colour> kColours[] = {
    {Colour::Red, "red"}, {Colour::Green, "green"}, {Colour::Blue, "blue"}, {Colour::Blue, "azure"}};

TEST(NamedValues, ParseAndNameAreInverseAndAliasesPrintTheFirstName) {
  for (const Colour c : {Colour::Red, Colour::Green, Colour::Blue})
    EXPECT_EQ(parse_named(name_of(c, kColours), kColours, "colour"), c);
  EXPECT_EQ(parse_named("azure", kColours, "colour"), Colour::Blue);
  EXPECT_STREQ(name_of(Colour::Blue, kColours), "blue");
  EXPECT_STREQ(name_of(Colour::Unnamed, kColours), "?");
}

TEST(NamedValues, AnUnknownNameIsRefusedWithTheKnownOnes) {
  try {
    parse_named("Red", kColours, "colour");  // names are case-sensitive
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "unknown colour 'Red' (red, green, blue or azure)");
  }
  EXPECT_THROW(parse_named("", kColours, "colour"), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
