// Taskflow baseline for the `dag-small` bench suite (bench/dag-small.ts, bench/README.md): the
// same graph shapes with the same tiny `add` kernel as the work-stealing executor, run on a
// tf::Executor with the given number of threads. Graph construction is not timed (the suite does
// not time compiling either); each timed run is `executor.run(taskflow).wait()`, `warmups`
// untimed runs first, then the median of `runs`. Prints one JSON line.
//
// Usage: taskflow-dag <threads> <warmups> <runs> chain <length>
//        taskflow-dag <threads> <warmups> <runs> independent <count>
//        taskflow-dag <threads> <warmups> <runs> layered-random <levels> <width> <seed>
//
// Build: g++ -O2 -std=c++20 -pthread -I<taskflow checkout> taskflow-dag.cpp (the suite does this
// when TASKFLOW_INCLUDE names a Taskflow checkout).
#include <taskflow/taskflow.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// shared/lib/rng.ts `mulberry32`, bit for bit, so layered-random draws the same edges.
struct Mulberry32 {
  uint32_t a;
  double next() {
    a += 0x6d2b79f5u;
    uint32_t t = a;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return static_cast<double>(t ^ (t >> 14)) / 4294967296.0;
  }
};

// engine/runtime/stealing/kernels.ts `addResult` in 32-bit arithmetic.
inline int32_t add_result(uint32_t node) {
  return static_cast<int32_t>((node * 0x9e3779b1u + 12345u) ^ (node >> 3));
}

struct Edges {
  std::vector<std::pair<int, int>> list;
};

// engine/core/graph/generators.ts `layeredRandom`: every node of level l has 1–4 distinct
// successors in level l+1, drawn in the same order from the same generator.
Edges layered_random(int levels, int width, uint32_t seed) {
  Edges e;
  Mulberry32 random{seed};
  int picked[4];
  for (int l = 0; l + 1 < levels; l++) {
    for (int k = 0; k < width; k++) {
      int out = std::min(width, 1 + static_cast<int>(std::floor(random.next() * 4)));
      int count = 0;
      while (count < out) {
        int target = static_cast<int>(std::floor(random.next() * width));
        bool seen = false;
        for (int q = 0; q < count; q++) seen = seen || picked[q] == target;
        if (seen) continue;
        picked[count++] = target;
        e.list.emplace_back(l * width + k, (l + 1) * width + target);
      }
    }
  }
  return e;
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: taskflow-dag <threads> <warmups> <runs> chain <length> | independent <count> | "
               "layered-random <levels> <width> <seed>\n");
  std::exit(2);
}

int arg(int argc, char** argv, int i) {
  if (i >= argc) usage();
  return std::atoi(argv[i]);
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = arg(argc, argv, 1);
  const int warmups = arg(argc, argv, 2);
  const int runs = arg(argc, argv, 3);
  if (argc < 5 || threads < 1 || warmups < 0 || runs < 1) usage();
  const std::string shape = argv[4];
  int n = 0;
  Edges edges;
  if (shape == "chain") {
    n = arg(argc, argv, 5);
    for (int i = 0; i + 1 < n; i++) edges.list.emplace_back(i, i + 1);
  } else if (shape == "independent") {
    n = arg(argc, argv, 5);
  } else if (shape == "layered-random") {
    const int levels = arg(argc, argv, 5);
    const int width = arg(argc, argv, 6);
    n = levels * width;
    edges = layered_random(levels, width, static_cast<uint32_t>(arg(argc, argv, 7)));
  } else {
    usage();
  }
  if (n < 1) usage();

  std::vector<int32_t> results(n);
  int32_t* out = results.data();
  tf::Taskflow taskflow;
  std::vector<tf::Task> tasks;
  tasks.reserve(n);
  for (int i = 0; i < n; i++)
    tasks.push_back(taskflow.emplace([out, i] { out[i] = add_result(static_cast<uint32_t>(i)); }));
  // An order-independent checksum of the edges, which the suite compares with its own graph's.
  uint32_t edge_sum = 0;
  for (auto [a, b] : edges.list) {
    tasks[a].precede(tasks[b]);
    edge_sum += (static_cast<uint32_t>(a) * 0x9e3779b1u) ^ static_cast<uint32_t>(b);
  }

  tf::Executor executor(threads);
  for (int w = 0; w < warmups; w++) executor.run(taskflow).wait();  // threads up, memory touched
  std::vector<double> ms;
  for (int r = 0; r < runs; r++) {
    std::fill(results.begin(), results.end(), 0);  // not timed, like the graph's construction
    const auto t0 = std::chrono::steady_clock::now();
    executor.run(taskflow).wait();
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  bool ok = true;
  for (int i = 0; i < n; i++) ok = ok && results[i] == add_result(static_cast<uint32_t>(i));
  std::sort(ms.begin(), ms.end());
  std::printf(
      "{\"shape\":\"%s\",\"nodes\":%d,\"edges\":%zu,\"edgeSum\":%u,\"threads\":%d,\"warmups\":%d,\"runs\":%d,"
      "\"medianMs\":%.6f,\"minMs\":%.6f,\"resultsOk\":%s}\n",
      shape.c_str(), n, edges.list.size(), edge_sum, threads, warmups, runs, ms[ms.size() / 2], ms.front(),
      ok ? "true" : "false");
  return ok ? 0 : 1;
}
