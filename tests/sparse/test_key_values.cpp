// split_key_values: the one splitter of "key=value,..." option lists.
#include <gtest/gtest.h>

#include <string>

#include "hetsparse/error.hpp"
#include "sparse/key_values.hpp"

namespace hetsparse {
namespace {

TEST(KeyValues, SplitsAtCommasAndTheFirstEquals) {
  const std::vector<KeyValue> items = split_key_values("blocks=8,al=inf,expr=a=b,empty=", "who");
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0].key, "blocks");
  EXPECT_EQ(items[0].value, "8");
  EXPECT_EQ(items[2].key, "expr");
  EXPECT_EQ(items[2].value, "a=b");
  EXPECT_EQ(items[3].value, "");
  EXPECT_TRUE(split_key_values("", "who").empty());
}

TEST(KeyValues, AnItemWithoutKeyOrEqualsIsNamed) {
  for (const char* bad : {"blocks", "a=1,", "=3", "a=1,,b=2"}) {
    try {
      split_key_values(bad, "clusterlevels");
      ADD_FAILURE() << bad;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("clusterlevels: '"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace hetsparse
