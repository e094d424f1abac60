#include "ooc/engine/tasks.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace ooc {
namespace {

// A partition of 100 edges (the edges of the lists this iteration reads) with an active vertex.
PartitionSurvey survey(TransferEngine e, double priority = 0) {
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
  std::vector<PartitionSurvey> s(10, survey(TransferEngine::filter));
  s[5] = PartitionSurvey{};  // inactive: breaks the run
  s[7] = survey(TransferEngine::zerocopy);
  s[8] = survey(TransferEngine::compaction);
  s[9] = survey(TransferEngine::zerocopy);
  TaskOptions o;
  o.staging_edges = 1000;
  const auto tasks = generate_tasks(s, o);
  EXPECT_EQ(partitions_of(tasks),
            (std::vector<std::vector<std::uint32_t>>{{0, 1, 2, 3}, {4}, {6}, {7, 9}, {8}}));
  EXPECT_EQ(tasks[0].engine, TransferEngine::filter);
  EXPECT_TRUE(tasks[0].reprocess);
  EXPECT_EQ(tasks[3].engine, TransferEngine::zerocopy);
  EXPECT_FALSE(tasks[3].reprocess);
  EXPECT_EQ(tasks[4].engine, TransferEngine::compaction);
}

TEST(Tasks, StagingBoundsAFilterTask) {
  std::vector<PartitionSurvey> s(4, survey(TransferEngine::filter));
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
  std::vector<PartitionSurvey> s{
      survey(TransferEngine::filter, 1.0), survey(TransferEngine::zerocopy, 9.0),
      survey(TransferEngine::filter, 5.0), survey(TransferEngine::zerocopy, 0.5),
      survey(TransferEngine::filter, 3.0)};
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

// Resident partitions with these active edges (every one active).
std::vector<PartitionSurvey> resident(const std::vector<eid_t>& active_edges) {
  std::vector<PartitionSurvey> s;
  for (const eid_t e : active_edges) {
    s.push_back(survey(TransferEngine::resident));
    s.back().activity.active_edges = e;
  }
  return s;
}

TEST(Tasks, ResidentPartitionsAreOneTaskUnlessSliced) {
  std::vector<PartitionSurvey> s = resident({10, 10, 10, 10});
  s[1] = survey(TransferEngine::filter);
  TaskOptions o;
  o.staging_edges = 1000;
  const auto one = generate_tasks(s, o);
  EXPECT_EQ(partitions_of(one), (std::vector<std::vector<std::uint32_t>>{{1}, {0, 2, 3}}));
  EXPECT_FALSE(one[1].reprocess);
  o.resident_slices = 3;
  const auto sliced = generate_tasks(s, o);
  EXPECT_EQ(partitions_of(sliced), (std::vector<std::vector<std::uint32_t>>{{1}, {0}, {2}, {3}}));
  for (std::size_t t = 1; t < sliced.size(); ++t) {
    EXPECT_EQ(sliced[t].engine, TransferEngine::resident);
    EXPECT_TRUE(sliced[t].reprocess);  // priority on
  }
  o.priority = false;
  EXPECT_FALSE(generate_tasks(s, o)[1].reprocess);
}

TEST(Tasks, ResidentSlicesHoldAboutEqualActiveEdgesInPartitionOrder) {
  TaskOptions o;
  o.resident_slices = 4;
  // 8 partitions of 10 active edges: 4 slices of 20.
  EXPECT_EQ(partitions_of(generate_tasks(resident({10, 10, 10, 10, 10, 10, 10, 10}), o)),
            (std::vector<std::vector<std::uint32_t>>{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  // A partition that passes several quarters ends one slice; the next quarter ends the next.
  EXPECT_EQ(partitions_of(generate_tasks(resident({70, 10, 10, 10}), o)),
            (std::vector<std::vector<std::uint32_t>>{{0}, {1}, {2, 3}}));
  EXPECT_EQ(partitions_of(generate_tasks(resident({10, 10, 10, 70}), o)),
            (std::vector<std::vector<std::uint32_t>>{{0, 1, 2}, {3}}));
  // Never more slices than asked, nor than partitions.
  EXPECT_EQ(generate_tasks(resident(std::vector<eid_t>(100, 1)), o).size(), 4u);
  EXPECT_EQ(generate_tasks(resident({5, 5}), o).size(), 2u);
  // Active vertices without active edges: one task.
  EXPECT_EQ(partitions_of(generate_tasks(resident({0, 0, 0}), o)),
            (std::vector<std::vector<std::uint32_t>>{{0, 1, 2}}));
}

TEST(Tasks, ResidentSlicesTakeAtLeastTheMinimumOfEdges) {
  TaskOptions o;
  o.resident_slices = 4;
  o.min_slice_edges = 30;
  const auto eight = resident({10, 10, 10, 10, 10, 10, 10, 10});  // 80 edges: 2 slices of 40
  EXPECT_EQ(partitions_of(generate_tasks(eight, o)),
            (std::vector<std::vector<std::uint32_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_TRUE(generate_tasks(eight, o)[0].reprocess);
  o.min_slice_edges = 41;  // one slice's worth: one task, as without slices
  const auto one = generate_tasks(eight, o);
  EXPECT_EQ(one.size(), 1u);
  EXPECT_FALSE(one[0].reprocess);
}

}  // namespace
}  // namespace ooc
