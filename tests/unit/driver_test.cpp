// drive() makes each iteration's scheduling decisions from what an executor reports: a scripted
// executor checks that it sums the surveys, chooses the priority window and the direction, and
// tells the executor what it chose.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <thread>
#include <vector>

#include "ooc/engine/detail/executor.hpp"
#include "ooc/engine/programs.hpp"

namespace ooc::detail {
namespace {

constexpr std::uint32_t kLine = 32;  // the scripted run's request line

// A zero-copy partition: `vertices` active vertices whose `edges` edges touch `requests` lines
// (link_bytes: requests * kLine).
PartitionSurvey zerocopy(std::uint64_t vertices, std::uint64_t edges, std::uint64_t requests) {
  PartitionSurvey s;
  s.activity = {1000, vertices, edges, requests, 0, 0};
  s.engine = TransferEngine::zerocopy;
  return s;
}

// An executor that replays one push and one pull survey per iteration (then none active), and
// records what drive() told it.
class ScriptedExecutor final : public Executor {
 public:
  struct Iteration {
    std::vector<PartitionSurvey> push, pull;
  };
  ScriptedExecutor(const ScheduleFacts& facts, std::vector<Iteration> script)
      : facts_(facts), script_(std::move(script)) {}

  ScheduleFacts facts() const override { return facts_; }
  std::optional<UrgencyRange> urgency_range() override {
    ++range_calls;
    std::this_thread::sleep_for(window_delay);
    return range;
  }
  void urgency_loads(const UrgencyRange& r, std::span<BucketLoad> out) override {
    loads_range = r;
    std::copy(loads.begin(), loads.end(), out.begin());
  }
  void survey(const PriorityWindow& window, std::span<PartitionSurvey> out) override {
    windows.push_back(window);
    fill(out, &Iteration::push);
  }
  void survey_pull(std::span<PartitionSurvey> out) override {
    ++pull_calls;
    std::this_thread::sleep_for(pull_delay);
    fill(out, &Iteration::pull);
  }
  void set_direction(bool pull) override { directions.push_back(pull); }
  void execute(std::span<const Task> tasks, IterationStats&) override {
    std::vector<std::uint32_t> partitions;
    for (const Task& t : tasks)
      partitions.insert(partitions.end(), t.partitions.begin(), t.partitions.end());
    std::ranges::sort(partitions);
    executed.push_back(partitions);
  }
  void advance_frontier() override { ++at_; }
  double pending_with_edges() override {
    ++pending_calls;
    return at_ <= pending.size() ? pending[at_ - 1] : 0.0;
  }
  // The frontier loop: `loop_levels` levels of `loop_level_edges` each (then the script's next
  // iteration, as if the loop had run it), or none when it does not serve (`loop_serves`).
  bool run_frontier_loop(const FrontierLoop& loop, std::vector<IterationStats>& out) override {
    loops.push_back(loop);
    if (!loop_serves) return false;
    for (std::uint32_t l = 0; l < loop_levels && l < loop.iterations; ++l) {
      IterationStats it;
      it.frontier_loop = true;
      it.iteration = 99;  // drive() numbers them
      it.active_edges = loop_level_edges;
      out.push_back(it);
    }
    ++at_;
    return true;
  }

  std::optional<UrgencyRange> range;
  bool loop_serves = false;
  std::uint32_t loop_levels = 0;
  std::uint64_t loop_level_edges = 0;
  std::vector<FrontierLoop> loops;  // each stretch asked for
  std::vector<BucketLoad> loads;
  std::chrono::milliseconds window_delay{0}, pull_delay{0};  // what urgency_range, survey_pull take
  std::vector<double> pending;  // what pends after each iteration of the script
  int pending_calls = 0;
  int range_calls = 0;
  int pull_calls = 0;
  std::optional<UrgencyRange> loads_range;
  std::vector<PriorityWindow> windows;
  std::vector<bool> directions;
  std::vector<std::vector<std::uint32_t>> executed;  // the partitions of each iteration's tasks

 private:
  void fill(std::span<PartitionSurvey> out, std::vector<PartitionSurvey> Iteration::*which) const {
    std::ranges::fill(out, PartitionSurvey{});
    if (at_ < script_.size()) std::ranges::copy(script_[at_].*which, out.begin());
  }

  ScheduleFacts facts_;
  std::vector<Iteration> script_;
  std::size_t at_ = 0;
};

const std::vector<Partition> kTwoPartitions{{0, 50, 0, 1000}, {50, 100, 1000, 2000}};

RunStats drive_script(ScriptedExecutor& executor) {
  RunStats stats;
  EXPECT_TRUE(drive(executor, kTwoPartitions, DriveOptions{}, stats));
  return stats;
}

ScheduleFacts out_of_core() {
  return {.vertices = 100, .may_pull = true, .edge_bytes = 4, .request_bytes = kLine};
}

// A frontier of at most DriveOptions::loop.edges goes to the frontier loop after the survey, whose
// levels join the run's iterations, numbered on; one past it runs from the host; an executor
// whose loop does not serve the run is not asked again; and such a tiny frontier pushes without
// the pull survey.
TEST(Drive, HandsSmallFrontiersToTheFrontierLoop) {
  ScriptedExecutor executor(
      out_of_core(),
      {{{zerocopy(3, 30, 10), zerocopy(2, 20, 10)}, {zerocopy(1, 10, 1), zerocopy(0, 0, 0)}},
       {{zerocopy(40, 400, 100), zerocopy(0, 0, 0)}, {zerocopy(1, 10, 1), zerocopy(0, 0, 0)}}});
  executor.loop_serves = true;
  executor.loop_levels = 3;
  executor.loop_level_edges = 7;
  DriveOptions o;
  o.loop = {.edges = 100, .iterations = 5, .delta = 0};
  o.tiny_edges = 100;
  RunStats stats;
  EXPECT_TRUE(drive(executor, kTwoPartitions, o, stats));
  // 50 edges: the loop, its 3 levels numbered 0-2; then 400 edges: the host, iteration 3.
  ASSERT_EQ(stats.iterations.size(), 4u);
  for (std::uint32_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(stats.iterations[i].frontier_loop);
    EXPECT_EQ(stats.iterations[i].iteration, i);
  }
  EXPECT_FALSE(stats.iterations[3].frontier_loop);
  EXPECT_EQ(stats.iterations[3].iteration, 3u);
  ASSERT_EQ(executor.loops.size(), 1u);
  EXPECT_EQ(executor.loops[0].edges, 100u);
  ASSERT_EQ(executor.executed.size(), 1u);  // the host ran only the wide iteration
  // The first iteration's 50 edges are tiny: no pull survey; the second's 400 are not.
  EXPECT_EQ(executor.pull_calls, 1);

  // Not served: asked once, and every iteration runs from the host.
  ScriptedExecutor host(out_of_core(), {{{zerocopy(3, 30, 10)}, {}}, {{zerocopy(2, 20, 10)}, {}}});
  RunStats host_stats;
  EXPECT_TRUE(drive(host, kTwoPartitions, o, host_stats));
  EXPECT_EQ(host.loops.size(), 1u);
  EXPECT_EQ(host_stats.iterations.size(), 2u);
  EXPECT_EQ(host.executed.size(), 2u);
  EXPECT_EQ(host_stats.loop_iterations(), 0u);
}

// The iteration limit holds across the loop: a stretch is asked for no more than what is left.
TEST(Drive, TheIterationLimitBoundsTheLoopsStretch) {
  ScriptedExecutor executor(out_of_core(), {{{zerocopy(3, 30, 10)}, {}}});
  executor.loop_serves = true;
  executor.loop_levels = 10;
  DriveOptions o;
  o.loop = {.edges = 100, .iterations = 4096, .delta = 0};
  o.max_iterations = 4;
  RunStats stats;
  drive(executor, kTwoPartitions, o, stats);
  ASSERT_EQ(executor.loops.size(), 1u);
  EXPECT_EQ(executor.loops[0].iterations, 4u);
  EXPECT_EQ(stats.iterations.size(), 4u);
}

TEST(Drive, SumsTheSurveysAndPullsWhenThePullMovesFewerBytes) {
  ScriptedExecutor executor(
      out_of_core(),
      {{{zerocopy(3, 30, 10), zerocopy(2, 20, 10)}, {zerocopy(5, 50, 30), zerocopy(0, 0, 0)}},
       {{zerocopy(4, 40, 10), zerocopy(0, 0, 0)}, {zerocopy(6, 60, 5), zerocopy(1, 10, 2)}}});
  const RunStats stats = drive_script(executor);
  ASSERT_EQ(stats.iterations.size(), 2u);
  // 20 lines pushed against 30 pulled: push, and the tasks are the frontier's.
  const IterationStats& push = stats.iterations[0];
  EXPECT_FALSE(push.pull);
  EXPECT_EQ(push.frontier_vertices, 5u);
  EXPECT_EQ(push.frontier_edges, 50u);
  EXPECT_EQ(push.active_vertices, 5u);
  EXPECT_EQ(push.active_edges, 50u);
  // 10 lines pushed against 7 pulled: pull, and the tasks are the gathering vertices'.
  const IterationStats& pull = stats.iterations[1];
  EXPECT_TRUE(pull.pull);
  EXPECT_EQ(pull.frontier_vertices, 4u);
  EXPECT_EQ(pull.frontier_edges, 40u);
  EXPECT_EQ(pull.active_vertices, 7u);
  EXPECT_EQ(pull.active_edges, 70u);
  EXPECT_EQ(pull.partitions[static_cast<std::size_t>(TransferEngine::zerocopy)], 2u);
  EXPECT_EQ(executor.executed, (std::vector<std::vector<std::uint32_t>>{{0, 1}, {0, 1}}));
  // The third survey finds nothing active: it pushes, and the run ends.
  EXPECT_EQ(executor.directions, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(executor.range_calls, 0);  // not windowed
  EXPECT_FALSE(executor.windows[0].deferring);
}

// A run asked for an accuracy (DriveOptions::enough_pending) ends after the first iteration that
// leaves at most that much pending, its frontier not yet empty, and says so; without it, the
// pending delta is never summed.
TEST(Drive, EndsOnceWhatPendsIsEnough) {
  const std::vector<ScriptedExecutor::Iteration> script(4, {{zerocopy(3, 30, 10)}, {}});
  ScriptedExecutor asked(out_of_core(), script);
  asked.pending = {8.0, 4.0, 2.0, 1.0};
  DriveOptions o;
  o.enough_pending = 2.5;
  RunStats stats;
  EXPECT_TRUE(drive(asked, kTwoPartitions, o, stats));
  EXPECT_EQ(stats.iterations.size(), 3u);
  EXPECT_EQ(asked.pending_calls, 3);
  ASSERT_EQ(stats.choices.size(), 1u);
  EXPECT_EQ(stats.choices[0],
            "ended after iteration 2, once what pended was within the accuracy "
            "asked for");

  ScriptedExecutor tolerance(out_of_core(), script);
  tolerance.pending = asked.pending;
  RunStats whole;
  EXPECT_TRUE(drive(tolerance, kTwoPartitions, DriveOptions{}, whole));
  EXPECT_EQ(whole.iterations.size(), 4u);
  EXPECT_EQ(tolerance.pending_calls, 0);
  EXPECT_TRUE(whole.choices.empty());
}

TEST(Drive, NeverSurveysThePullWhenTheRunMayNotPull) {
  ScheduleFacts facts = out_of_core();
  facts.may_pull = false;
  // A pull survey that would win, were it asked for.
  ScriptedExecutor executor(facts, {{{zerocopy(3, 30, 10)}, {zerocopy(1, 1, 1)}}});
  const RunStats stats = drive_script(executor);
  ASSERT_EQ(stats.iterations.size(), 1u);
  EXPECT_FALSE(stats.iterations[0].pull);
  EXPECT_EQ(stats.iterations[0].active_vertices, 3u);
  EXPECT_EQ(executor.directions, (std::vector<bool>{false, false}));
  EXPECT_EQ(executor.pull_calls, 0);
}

TEST(Drive, MustPullPullsWheneverBothDirectionsHaveVertices) {
  ScheduleFacts facts = out_of_core();
  facts.must_pull = true;
  ScriptedExecutor executor(facts, {{{zerocopy(3, 30, 1)}, {zerocopy(5, 50, 100)}},
                                    {{zerocopy(3, 30, 1)}, {zerocopy(0, 0, 0)}}});
  const RunStats stats = drive_script(executor);
  ASSERT_EQ(stats.iterations.size(), 2u);
  EXPECT_TRUE(stats.iterations[0].pull);   // though it moves more
  EXPECT_FALSE(stats.iterations[1].pull);  // no vertex would gather
}

// In memory with a pull floor: Beamer's rule, whose state drive() carries between iterations.
TEST(Drive, CarriesTheDirectionStateBetweenIterations) {
  ScheduleFacts facts = out_of_core();
  facts.vertices = 1000;
  facts.in_memory = true;
  facts.pull_floor = true;
  ScriptedExecutor executor(facts, {
                                       // 100 frontier edges > 1000 / alpha: pull
                                       {{zerocopy(10, 100, 1)}, {zerocopy(500, 1000, 1)}},
                                       // shrinking and under V / beta: back to push
                                       // (100 edges would pull, were it not for the last pull)
                                       {{zerocopy(5, 100, 1)}, {zerocopy(500, 1000, 1)}},
                                       // growing again: pull
                                       {{zerocopy(60, 900, 1)}, {zerocopy(400, 1000, 1)}},
                                   });
  const RunStats stats = drive_script(executor);
  ASSERT_EQ(stats.iterations.size(), 3u);
  EXPECT_TRUE(stats.iterations[0].pull);
  EXPECT_FALSE(stats.iterations[1].pull);
  EXPECT_TRUE(stats.iterations[2].pull);
}

TEST(Drive, ChoosesThePriorityWindowFromTheUrgencyLoads) {
  ScheduleFacts facts = out_of_core();
  facts.windowed = true;
  facts.priority_fraction = 0.5;
  ScriptedExecutor executor(facts, {{{zerocopy(3, 30, 10)}, {}}});
  executor.range = UrgencyRange{0, 255};
  executor.loads.assign(kPriorityBuckets, BucketLoad{});
  for (std::size_t b = 0; b < 10; ++b)
    executor.loads[b].edges = 10;
  drive_script(executor);
  ASSERT_EQ(executor.windows.size(), 2u);
  // Half of the 100 edges: buckets 0 to 4.
  const PriorityWindow& w = executor.windows[0];
  EXPECT_TRUE(w.deferring);
  EXPECT_EQ(w.last_bucket, 4);
  EXPECT_EQ(w.range.most, 0);
  EXPECT_EQ(w.range.least, 255);
  ASSERT_TRUE(executor.loads_range.has_value());
  EXPECT_EQ(executor.loads_range->least, 255);
  EXPECT_EQ(executor.range_calls, 2);
}

// The survey's time is split: the priority window's passes and the direction's (the pull survey
// and the choice) are each timed on their own, within the survey's.
TEST(Drive, TimesTheWindowAndTheDirectionWithinTheSurvey) {
  ScheduleFacts facts = out_of_core();
  facts.windowed = true;
  ScriptedExecutor executor(facts, {{{zerocopy(3, 30, 10)}, {zerocopy(5, 50, 30)}}});
  executor.range = UrgencyRange{0, 255};
  executor.loads.assign(kPriorityBuckets, BucketLoad{.edges = 1});
  executor.window_delay = std::chrono::milliseconds(100);
  executor.pull_delay = std::chrono::milliseconds(100);
  const RunStats stats = drive_script(executor);
  ASSERT_EQ(stats.iterations.size(), 1u);
  const IterationStats& it = stats.iterations[0];
  // Each at least its own delay and short of both together (200 ms): a slow sleep has 100 ms.
  EXPECT_GE(it.window_seconds, 0.1);
  EXPECT_LT(it.window_seconds, 0.2);
  EXPECT_GE(it.direction_seconds, 0.1);
  EXPECT_LT(it.direction_seconds, 0.2);
  EXPECT_GE(it.survey_seconds, it.window_seconds + it.direction_seconds);
}

// A delta in place of the fraction: the keys up to the smallest plus delta (range 0..255, one
// key per bucket), then on until the window holds the least edges asked for.
TEST(Drive, ChoosesADeltaWindowFromTheSmallestActiveValue) {
  ScheduleFacts facts = out_of_core();
  facts.windowed = true;
  facts.priority_min_edges = 0;
  ScriptedExecutor executor(facts, {{{zerocopy(3, 30, 10)}, {}}});
  executor.range = UrgencyRange{0, 255};
  executor.loads.assign(kPriorityBuckets, BucketLoad{});
  for (std::size_t b = 0; b < 10; ++b)
    executor.loads[b].edges = 10;
  DriveOptions by_delta;
  by_delta.priority_delta = 3;
  RunStats stats;
  EXPECT_TRUE(drive(executor, kTwoPartitions, by_delta, stats));
  EXPECT_TRUE(executor.windows[0].deferring);
  EXPECT_EQ(executor.windows[0].last_bucket, 3);
  EXPECT_TRUE(executor.windows[0].admits(3.0));
  EXPECT_FALSE(executor.windows[0].admits(4.0));

  const auto window_for = [&](double delta, std::uint64_t min_edges) {
    return choose_delta_window(*executor.range, executor.loads, delta, min_edges);
  };
  EXPECT_EQ(window_for(3, 55).last_bucket, 5);  // 60 edges in buckets 0..5
  EXPECT_FALSE(window_for(9, 0).deferring);     // every active edge is within 9
  EXPECT_FALSE(window_for(3, 1000).deferring);  // fewer edges than asked: all of them
}

// A program's urgency floor (a least delta per edge) bounds every window, priority on or off.
TEST(Drive, NoWindowAdmitsAKeyAboveTheFloor) {
  ScheduleFacts facts = out_of_core();
  facts.urgency_floor = 10;
  ScriptedExecutor unwindowed(facts, {{{zerocopy(3, 30, 10)}, {}}});
  drive_script(unwindowed);
  ASSERT_EQ(unwindowed.windows.size(), 2u);
  EXPECT_EQ(unwindowed.range_calls, 0);
  EXPECT_TRUE(unwindowed.windows[0].admits(10.0));
  EXPECT_FALSE(unwindowed.windows[0].admits(10.5));
  EXPECT_TRUE(unwindowed.windows[0].holds_back());

  facts.windowed = true;
  facts.priority_fraction = 1.0;
  ScriptedExecutor windowed(facts, {{{zerocopy(3, 30, 10)}, {}}});
  windowed.range = UrgencyRange{0, 255};
  windowed.loads.assign(kPriorityBuckets, BucketLoad{});
  windowed.loads[0].edges = 10;
  drive_script(windowed);
  EXPECT_FALSE(windowed.windows[0].deferring);  // the whole fraction: every bucket
  EXPECT_TRUE(windowed.windows[0].admits(3.0));
  EXPECT_FALSE(windowed.windows[0].admits(11.0));

  EXPECT_FALSE(PriorityWindow{}.holds_back());
  EXPECT_EQ(urgency_floor(PageRank{0.85f, 1e-3f}), std::numeric_limits<double>::infinity());
  EXPECT_EQ(urgency_floor(PageRank{0.85f, 0.25f, 0.25f}), 2.0);  // -log2(0.25)
  EXPECT_EQ(urgency_floor(Bfs{0}), std::numeric_limits<double>::infinity());
}

// A frontier at one urgency (a BFS level) takes no histogram: the window is every vertex.
TEST(Drive, TakesNoHistogramWhenEveryActiveVertexIsEquallyUrgent) {
  ScheduleFacts facts = out_of_core();
  facts.windowed = true;
  facts.priority_fraction = 0.1;
  ScriptedExecutor executor(facts, {{{zerocopy(3, 30, 10)}, {}}});
  executor.range = UrgencyRange{7, 7};
  drive_script(executor);
  ASSERT_EQ(executor.windows.size(), 2u);
  EXPECT_EQ(executor.range_calls, 2);
  EXPECT_FALSE(executor.loads_range.has_value());
  EXPECT_FALSE(executor.windows[0].deferring);
  EXPECT_TRUE(executor.windows[0].admits(7.0));
  // What the histogram would have given: everything in bucket 0, taken whole.
  std::vector<BucketLoad> one_bucket(kPriorityBuckets);
  one_bucket[0].edges = 30;
  EXPECT_FALSE(choose_window(*executor.range, one_bucket, false, 0.1, 0).deferring);
}

TEST(Drive, AdmitsEveryVertexWhenNoneIsActive) {
  ScheduleFacts facts = out_of_core();
  facts.windowed = true;
  ScriptedExecutor executor(facts, {});
  drive_script(executor);
  ASSERT_EQ(executor.windows.size(), 1u);
  EXPECT_FALSE(executor.windows[0].deferring);
  EXPECT_FALSE(executor.loads_range.has_value());  // no histogram without a range
}

// The one formula both backends window by: the value, or -log2 of the delta per out-edge.
TEST(Urgency, IsTheValueOrTheLogOfTheDeltaPerEdge) {
  EXPECT_EQ(urgency<Bfs>(7, 0, 3), 7.0);
  EXPECT_EQ(urgency<PageRank>(1.0f, 0.5f, 4), 3.0);  // -log2(0.5 / 4)
  EXPECT_EQ(urgency<PageRank>(1.0f, 0.5f, 0), 1.0);  // no out-edge counts as one
  EXPECT_GT(urgency<PageRank>(1.0f, 0.0f, 1), 900);  // nothing pending: least urgent
}

}  // namespace
}  // namespace ooc::detail
