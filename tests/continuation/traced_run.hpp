#pragma once
// A primary path traced from rest to its end with a PathFollower, kept for the
// continuation tests that compare runs under different options.
#include <catch2/catch.hpp>
#include <vector>

#include "senda/continuation/path_follower.hpp"

namespace senda::continuation::testing {

struct Run {
  std::vector<PathPoint> points;
  Stats stats;
  long factorizations = 0;
  Termination end = Termination::Running;
};

inline Run trace(const Problem& p, const Options& o) {
  PathFollower f(p, o);
  Run r;
  REQUIRE(f.start(Vector::Zero(p.size()), 0.0));
  while (f.advance()) r.points.push_back(f.current());
  r.stats = f.stats();
  r.factorizations = f.factor_stats().factorizations;
  r.end = f.termination();
  return r;
}

}  // namespace senda::continuation::testing
