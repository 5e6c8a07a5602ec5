// Eriksson's plane frame (Cardona & Huespe 1997, second example; candidate
// reconstruction, problems/eriksson-frame.cfg) and Roorda's L-frame
// (problems/roorda-frame.cfg), both run through the trace driver as the `trace`
// command does. Measured numbers and the comparison with the paper:
// docs/notes/eriksson-frame.md, docs/validation.md.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "senda/input/builder.hpp"
#include "support/trace_run.hpp"

using namespace senda;
namespace fs = std::filesystem;

namespace {
const fs::path kResults = fs::path(SENDA_BINARY_DIR) / "test-results";

// The result of a run and the names of its tracked columns.
struct Run : analysis::TraceResult {
  std::vector<std::string> track_columns;
};

Run run_file(const fs::path& cfg, const std::string& name, const std::vector<std::string>& overrides = {}) {
  input::Config config = input::Config::read_file(cfg);
  for (const std::string& o : overrides) config.apply_override(o);
  const input::Spec spec = input::build(config);
  Run run{senda::testing::run_into(spec, kResults / name, &config), input::track_columns(spec)};
  return run;
}

// problems/eriksson-frame.cfg with n elements per member instead of 4.
fs::path eriksson_mesh(int n) {
  std::ifstream in(std::string(SENDA_SOURCE_DIR) + "/problems/eriksson-frame.cfg");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  const std::string from = "265740 4 ", to = "265740 " + std::to_string(n) + " ";
  int replaced = 0;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
    ++replaced;
  }
  REQUIRE(replaced == 2);  // both members
  fs::create_directories(kResults);
  const fs::path out = kResults / ("eriksson-frame-" + std::to_string(n) + ".cfg");
  std::ofstream(out) << text;
  return out;
}

int index_of(const analysis::TraceResult& s, const std::string& id) {
  for (std::size_t k = 0; k < s.critical_points.size(); ++k)
    if (s.critical_points[k].point.id == id) return static_cast<int>(k);
  FAIL("no critical point " << id);
  return -1;
}

constexpr double kH = 38.6;  // apex height; tracked column 0 is u_2_uy
}  // namespace

TEST_CASE("Eriksson frame (4 + 4 candidate): A, B, C, D located, branches A-D and B-C", "[frame][eriksson]") {
  const Run s =
      run_file(std::string(SENDA_SOURCE_DIR) + "/problems/eriksson-frame.cfg", "eriksson-frame");
  REQUIRE(s.track_columns.size() >= 1);
  REQUIRE(s.track_columns[0] == "u_2_uy");
  // Senda's lambda is the downward apex load; the paper's P is positive upward: P = -lambda.
  // Measured (location tolerance 1e-10; 1e-6 catches any change of model or element):
  struct Expect {
    const char* id;
    double lambda, y;
  };
  const Expect bps[] = {{"BP1", 1358.54337362, 36.5338},   // paper A: P = -1244, y = 36.68
                        {"BP2", 3017.14523208, 33.4069},   // paper B: P = -2540, y = 34.09
                        {"BP5", -1663.6462992, -13.9454},  // paper C: P = 956.5, y = -12.67
                        {"BP6", -185.400940722, -22.6133}, // paper D: P = 37.65, y = -23.00
                        {"BP3", 4475.58776539, 25.7405},   // after the limit load (not in the paper)
                        {"BP4", 234.433912838, 8.4838}};
  for (const Expect& e : bps) {
    INFO(e.id);
    const int k = index_of(s, e.id);
    const critical::CriticalPoint& cp = s.critical_points[k].point;
    CHECK(cp.converged);
    CHECK(cp.kind == critical::CriticalKind::Bifurcation);
    CHECK(cp.lambda == Approx(e.lambda).epsilon(1e-6));
    CHECK(kH + s.critical_points[k].tracked[0] == Approx(e.y).margin(1e-3));
    REQUIRE(cp.abe);
    // Antisymmetric modes on the symmetric path: A = C = 0 by symmetry; their
    // finite-difference noise is <= 1.2e-2 |B| (measured 3e-4 |B| at A and B, 1.3e-2 at BP3
    // for A), so the cfg's symmetric_tolerance 1e-3 (on C) classifies them symmetric.
    CHECK(cp.abe->symmetric);
    CHECK(std::abs(cp.abe->C) <= 1e-3 * std::abs(cp.abe->B1));
    CHECK(std::abs(cp.abe->A) <= 2e-2 * std::abs(cp.abe->B1));
    // B computed both ways: D3U[phi, v, phi] at the located point, equal to FD truncation.
    CHECK(std::abs(cp.abe->B1 - cp.abe->B2) <= 1e-5 * std::abs(cp.abe->B1));
  }
  CHECK(s.critical_points[index_of(s, "LP1")].point.kind == critical::CriticalKind::Limit);
  CHECK(s.critical_points[index_of(s, "LP1")].point.lambda == Approx(4519.1690459).epsilon(1e-6));
  CHECK(s.critical_points[index_of(s, "LP2")].point.kind == critical::CriticalKind::Limit);
  CHECK(s.critical_points[index_of(s, "LP2")].point.lambda == Approx(-1907.84557769).epsilon(1e-6));

  // Topology as in the paper: the branches from A rejoin at D, those from B at C
  // (rejoining points detected by the bordered determinant and located again).
  auto rejoin = [&](const std::string& from) {
    std::vector<std::string> ends;
    for (const auto& b : s.branches)
      if (b.start_point == from) {
        CHECK(b.termination == critical::BranchEnd::Rejoined);
        ends.push_back(b.end_point);
      }
    return ends;
  };
  CHECK(rejoin("BP1") == std::vector<std::string>{"BP6", "BP6"});
  CHECK(rejoin("BP2") == std::vector<std::string>{"BP5", "BP5"});
  CHECK(rejoin("BP3") == std::vector<std::string>{"BP4", "BP4"});

  // Against the paper: the sign pattern and the apex heights of A and D agree (within
  // 0.4 % and 1.7 %), the loads do NOT: A +9.2 %, B +18.8 %, C +74 %, D 4.9 x. The
  // candidate is therefore not the paper's model; these bounds pin the discrepancy
  // documented in docs/notes/eriksson-frame.md.
  const double A = s.critical_points[index_of(s, "BP1")].point.lambda, B = s.critical_points[index_of(s, "BP2")].point.lambda;
  CHECK(A / 1244.0 - 1 == Approx(0.0921).margin(1e-3));
  CHECK(B / 2540.0 - 1 == Approx(0.1879).margin(1e-3));
}

// With unit weights (auto_scale = false, psi = 1) a step of the frame's branches is
// measured mostly in lambda (~10^3 against displacements ~10): near the rejoining
// points the corrector converges to the primary path at that lambda, and the branch
// follows it. Such a branch used to end "rejoined at LP2" (a limit point, where no
// other path meets the primary) or "rejoined at BP5" coming along the primary path
// itself. It now ends Jumped, says so, and its point is left to be switched at.
TEST_CASE("Eriksson frame at unit weights: a branch that jumped onto the primary path says so",
          "[frame][eriksson][branch]") {
  const Run s = run_file(std::string(SENDA_SOURCE_DIR) + "/problems/eriksson-frame.cfg", "eriksson-frame-unit-weights",
                         {"continuation.auto_scale=false"});
  int jumped = 0;
  for (const auto& b : s.branches) {
    if (b.id == 0) continue;
    if (b.termination == critical::BranchEnd::Rejoined) {
      // A genuine rejoining: at a bifurcation point (never at a limit point of the path
      // the branch left).
      const auto& end = s.critical_points[index_of(s, b.end_point)].point;
      CHECK(end.kind == critical::CriticalKind::Bifurcation);
    } else {
      CHECK(b.termination == critical::BranchEnd::Jumped);
      CHECK(b.message.find("jumped onto branch 0") != std::string::npos);
      CHECK(b.message.find("continuation.psi") != std::string::npos);
      ++jumped;
    }
  }
  CHECK(jumped >= 5);
  // Branch 4 (from BP2, -) reached BP5 along the primary path: BP5 was not marked
  // switched by it, and its own branches were traced.
  bool from_bp5 = false;
  for (const auto& b : s.branches) from_bp5 = from_bp5 || b.start_point == "BP5";
  CHECK(from_bp5);

  // The remedy the message names: a smaller psi weighs the displacements in the step,
  // and every branch rejoins where the default metric has it rejoin.
  const Run t = run_file(std::string(SENDA_SOURCE_DIR) + "/problems/eriksson-frame.cfg", "eriksson-frame-psi",
                         {"continuation.auto_scale=false", "continuation.psi=0.01"});
  std::vector<std::string> ends;
  for (const auto& b : t.branches)
    if (b.id > 0) {
      CHECK(b.termination == critical::BranchEnd::Rejoined);
      ends.push_back(b.start_point + ">" + b.end_point);
    }
  CHECK(ends == std::vector<std::string>{"BP1>BP6", "BP1>BP6", "BP2>BP5", "BP2>BP5", "BP3>BP4", "BP3>BP4"});
}

// At psi = 0.001 (auto_scale = false) the branch from BP2 (+) passes the pitchfork BP5
// near its tip, 0.29 in lambda short of it: the eigenvalue monitor sees the dip, and
// SPB converges to BP5 itself, 1.2 bracket lengths off the bracket's chord, so the
// crossing is reported not located. Its message names BP5 (it said only "another
// critical point"). Either the branch rejoins at BP5, or a point not located on it
// names BP5.
TEST_CASE("Eriksson frame at psi = 0.001: a crossing not located names the point Newton went to",
          "[frame][eriksson][branch]") {
  const Run s = run_file(std::string(SENDA_SOURCE_DIR) + "/problems/eriksson-frame.cfg", "eriksson-frame-psi-small",
                         {"continuation.auto_scale=false", "continuation.psi=0.001"});
  int branch = -1;
  for (const auto& b : s.branches)
    if (b.start_point == "BP2" && b.direction > 0) branch = b.id;
  REQUIRE(branch > 0);
  bool rejoined_bp5 = false, names_bp5 = false;
  for (const auto& b : s.branches)
    if (b.id == branch) rejoined_bp5 = b.termination == critical::BranchEnd::Rejoined && b.end_point == "BP5";
  for (const auto& rec : s.critical_points) {
    const critical::CriticalPoint& cp = rec.point;
    if (cp.converged || cp.branches.empty() || cp.branches.front() != branch) continue;
    INFO(cp.id << ": " << cp.message);
    names_bp5 = names_bp5 || cp.message.find("Newton's point is BP5, located before on branch 0") != std::string::npos;
  }
  CHECK((rejoined_bp5 || names_bp5));
}

TEST_CASE("Eriksson frame: mesh refinement 4, 8, 16 per member lowers A and B strongly", "[frame][eriksson]") {
  // One-point-integrated linear elements are stiff; 4 per member is far from converged.
  // Measured (primary path): A 1358.54, 1143.1, 1098.3; B 3017.1, 2192.0, 2041.5. The
  // differences shrink by 4.8 (A) and 5.5 (B) per halving: order 2 in its
  // pre-asymptotic range (h²-ratio 4 plus higher terms at 4 elements per member).
  double A[3], B[3];
  const int meshes[] = {4, 8, 16};
  for (int im = 0; im < 3; ++im) {
    const int n = meshes[im];
    INFO(n << " elements per member");
    const Run s = run_file(eriksson_mesh(n), "eriksson-frame-" + std::to_string(n),
                                        {"branches.switch=false", "stop.lambda_min=0"});
    REQUIRE(s.critical_points.size() >= 2);
    for (int k = 0; k < 2; ++k) {
      CHECK(s.critical_points[k].point.converged);
      CHECK(s.critical_points[k].point.kind == critical::CriticalKind::Bifurcation);
    }
    A[im] = s.critical_points[0].point.lambda;
    B[im] = s.critical_points[1].point.lambda;
    UNSCOPED_INFO(n << " per member: A " << A[im] << " B " << B[im]);
  }
  CHECK(A[0] == Approx(1358.54337).epsilon(1e-6));
  CHECK(A[1] == Approx(1143.1).epsilon(1e-3));
  CHECK(B[1] == Approx(2192.0).epsilon(1e-3));
  CHECK(A[2] == Approx(1098.3).epsilon(1e-3));
  CHECK(B[2] == Approx(2041.5).epsilon(1e-3));
  for (const double* P : {A, B}) {
    CHECK(P[0] > P[1]);
    CHECK(P[1] > P[2]);
    const double ratio = (P[0] - P[1]) / (P[1] - P[2]);
    INFO("ratio " << ratio);
    CHECK(ratio >= 4.0);
    CHECK(ratio <= 6.0);
  }
  // The paper's A and B lie between the 4 + 4 and the 8 + 8 values: the mesh error of
  // this element (15 % and 27 % from 4 to 8 per member) is larger than the 1 % the
  // reconstruction was supposed to reproduce.
  CHECK(A[1] < 1244.0);
  CHECK(1244.0 < A[0]);
  CHECK(B[1] < 2540.0);
  CHECK(2540.0 < B[0]);
}

TEST_CASE("Roorda frame .cfg: asymmetric bifurcation within its discretisation error", "[frame][roorda-frame][catalogue]") {
  const Run s = run_file(std::string(SENDA_SOURCE_DIR) + "/problems/roorda-frame.cfg", "roorda-frame");
  const double P_cr = 13.885943;  // x² EI/L², x² + 3 = 3x cot x (frames_test.cpp solves it)
  const critical::CriticalPoint& bp = s.critical_points.at(index_of(s, "BP1")).point;
  CHECK(bp.kind == critical::CriticalKind::Bifurcation);
  CHECK(bp.system == "SPB");
  // 16 elements per member: relative error ≈ 2.2/n² = 8.6e-3 (measured 8.643e-3, the
  // frames test's 8/16/32 sequence has ratio 4.07, 3.98); EA = 1e5 shifts it by ~3e-5.
  const double err = bp.lambda / P_cr - 1;
  CHECK(err > 8.2e-3);
  CHECK(err < 9.0e-3);
  REQUIRE(bp.abe);
  CHECK(!bp.abe->symmetric);
  CHECK(std::abs(bp.abe->C) >= std::abs(bp.abe->B1));  // measured C/B ≈ -6.4
  CHECK(s.branches.size() == 3);  // primary and both halves of the secondary branch
}

TEST_CASE("Eriksson frame, co-rotational element (4 + 4): A, B, C of the paper within 1.1 %", "[frame][eriksson]") {
  // docs/notes/eriksson-frame.md §5b. The paper: A P = −1244 (y₀ 36.68), B −2540 (34.09),
  // C 956.5 (−12.67); Senda's λ = −P. Measured: A 1249.48591524, B 2567.47542263,
  // C (the fundamental-path bifurcation at λ < 0) −954.92284425.
  const Run s = run_file(std::string(SENDA_SOURCE_DIR) + "/problems/eriksson-frame.cfg",
                                      "eriksson-frame-corot",
                                      {"model.beam_formulation=corotational", "branches.switch=false"});
  std::vector<double> bp;  // bifurcations on the fundamental path, in order
  double yA = 0;
  for (std::size_t k = 0; k < s.critical_points.size(); ++k) {
    const auto& cp = s.critical_points[k].point;
    REQUIRE(cp.converged);
    if (cp.kind != critical::CriticalKind::Bifurcation) continue;
    if (bp.empty()) yA = kH + s.critical_points[k].tracked[0];
    bp.push_back(cp.lambda);
  }
  REQUIRE(bp.size() >= 5);
  CHECK(bp[0] == Approx(1249.48591524).epsilon(1e-8));
  CHECK(bp[1] == Approx(2567.47542263).epsilon(1e-8));
  CHECK(std::abs(bp[0] / 1244.0 - 1) <= 0.0045);
  CHECK(std::abs(bp[1] / 2540.0 - 1) <= 0.011);
  CHECK(std::abs(yA / 36.68 - 1) <= 1e-3);
  const double C = bp[4];  // BP5: the first bifurcation at λ < 0
  CHECK(C == Approx(-954.92284425).epsilon(1e-8));
  CHECK(std::abs(-C / 956.5 - 1) <= 0.002);
}

// At max_step_ratio = 5 the branch from BP2 (-) reaches BP5, where its lambda is
// extremal (BP5 is a pitchfork of the primary path and the branch is one of its
// secondary branches): the eigenvalue monitor brackets it and SPL, which holds at a
// bifurcation point too, stopped 1.3e-10 from BP5 in lambda but 2.2e-6 (relative) in
// q, with phi^T r = 1.7e-5. That was reported as a new limit point LP3 and the branch
// ran on to max-steps. SPB from SPL's point now locates BP5, and the branch rejoins
// there like its mirror.
TEST_CASE("Eriksson frame at max_step_ratio = 5: a branch reaching a pitchfork rejoins it, no limit point there",
          "[frame][eriksson][branch]") {
  const Run s = run_file(std::string(SENDA_SOURCE_DIR) + "/problems/eriksson-frame.cfg", "eriksson-frame-ratio5",
                         {"continuation.max_step_ratio=5"});
  for (const auto& c : s.critical_points)
    if (c.point.converged && c.point.kind == critical::CriticalKind::Limit) {
      INFO(c.point.id << " at " << c.point.lambda);
      CHECK(c.point.phi_dot_r > 1e-3);
    }
  int from_bp2 = 0;
  for (const auto& b : s.branches)
    if (b.start_point == "BP2") {
      ++from_bp2;
      INFO("branch " << b.id << ": " << b.message);
      CHECK(b.termination == critical::BranchEnd::Rejoined);
      CHECK(b.end_point == "BP5");
    }
  CHECK(from_bp2 == 2);
}
