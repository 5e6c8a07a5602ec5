#pragma once
// The critical points of a Spec's primary path (tests only): the path followed from
// rest with the spec's path options, every step checked and located by a default
// CriticalPointFinder (no branch switching, no output).
#include <catch2/catch.hpp>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/branch.hpp"
#include "senda/input/builder.hpp"

namespace senda::testing {

inline std::vector<critical::CriticalPoint> primary_points(const input::Spec& spec) {
  continuation::Options o = spec.analysis.explorer.path;
  continuation::PathFollower pf(*spec.model, o);
  REQUIRE(pf.start(Vector::Zero(spec.model->size()), 0.0));
  critical::CriticalPointFinder finder(critical::FinderOptions{});
  while (pf.advance()) finder.check(pf, 0);
  return finder.points();
}

}  // namespace senda::testing
