#include "ooc/engine/tasks.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace ooc {
namespace {

// A partition of 100 edges (the edges of the lists this iteration reads) with an active vertex.
PartitionSurvey survey(Engine e, double priority = 0) {
  PartitionSurvey s;
  s.activity.edges = 100;
  s.activity.active_vertices = 1;
  s.engine = e;
  s.priority = priority;
  return s;
}

std::vector<std::vector<std::uint32_t>> partitions_of(const std::vector<Task>& tasks) {
  std::vector<std::vector<std::uint32_t>> out;
  for (const Task& t : tasks)
    out.push_back(t.partitions);
  return out;
}

TEST(Tasks, MergesNeighbouringFilterPartitionsUpToK) {
  std::vector<PartitionSurvey> s(10, survey(Engine::filter));
  s[5] = PartitionSurvey{};  // inactive: breaks the run
  s[7] = survey(Engine::zerocopy);
  s[8] = survey(Engine::compaction);
  s[9] = survey(Engine::zerocopy);
  TaskOptions o;
  o.staging_edges = 1000;
  const auto tasks = generate_tasks(s, o);
  EXPECT_EQ(partitions_of(tasks),
            (std::vector<std::vector<std::uint32_t>>{{0, 1, 2, 3}, {4}, {6}, {7, 9}, {8}}));
  EXPECT_EQ(tasks[0].engine, Engine::filter);
  EXPECT_TRUE(tasks[0].reprocess);
  EXPECT_EQ(tasks[3].engine, Engine::zerocopy);
  EXPECT_FALSE(tasks[3].reprocess);
  EXPECT_EQ(tasks[4].engine, Engine::compaction);
}

TEST(Tasks, StagingBoundsAFilterTask) {
  std::vector<PartitionSurvey> s(4, survey(Engine::filter));
  TaskOptions o;
  o.staging_edges = 250;  // two partitions of 100 edges
  EXPECT_EQ(partitions_of(generate_tasks(s, o)),
            (std::vector<std::vector<std::uint32_t>>{{0, 1}, {2, 3}}));
  // An iteration that pulls over in-lists surveys their edges, which may differ from the
  // out-lists': the task bound follows what the survey says.
  s[1].activity.edges = 200;
  EXPECT_EQ(partitions_of(generate_tasks(s, o)),
            (std::vector<std::vector<std::uint32_t>>{{0}, {1}, {2, 3}}));
}

TEST(Tasks, DeltaPriorityOrdersFilterTasksAndOffKeepsTheNaturalOrder) {
  std::vector<PartitionSurvey> s{survey(Engine::filter, 1.0), survey(Engine::zerocopy, 9.0),
                                 survey(Engine::filter, 5.0), survey(Engine::zerocopy, 0.5),
                                 survey(Engine::filter, 3.0)};
  TaskOptions o;
  o.staging_edges = 1000;
  o.ordered = true;
  EXPECT_EQ(partitions_of(generate_tasks(s, o)),
            (std::vector<std::vector<std::uint32_t>>{{2}, {4}, {0}, {1, 3}}));
  o.priority = false;
  const auto plain = generate_tasks(s, o);
  EXPECT_EQ(partitions_of(plain), (std::vector<std::vector<std::uint32_t>>{{0}, {2}, {4}, {1, 3}}));
  EXPECT_FALSE(plain[0].reprocess);
}

}  // namespace
}  // namespace ooc
