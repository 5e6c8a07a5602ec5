// model.beam with model.dim = 3: the elements and dofs it builds, rotations in fix
// and load, and the messages for bad 3D beams (the bad-input corpus has more).
#include <catch2/catch.hpp>
#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "senda/input/builder.hpp"
#include "senda/model/beam3d.hpp"
#include "senda/model/model.hpp"
#include "support/config_errors.hpp"

using namespace senda;
using namespace senda::input;
using senda::model::Component;

namespace {
const std::string kFrame =
    "[model]\n"                                          // 1
    "dim = 3\n"                                          // 2
    "node = 1 0 0 0\n"                                   // 3
    "node = 2 0 0 2\n"                                   // 4
    "node = 3 1 0 2\n"                                   // 5
    "beam = 1 1 2 100 40 30 5 6 7 1 0 0 2\n"             // 6 column, ids 1, 2
    "beam = 10 2 3 100 40 30 5 6 7 0 0 1\n"              // 7 beam, id 10
    "fix = 1 all rx ry rz\n"                             // 8
    "load = 3 rx 1.5\n"                                  // 9
    "load = 3 uy -1\n";                                  // 10

std::string error_of(const std::string& text) { return senda::test::build_error(text, "b.cfg"); }
}  // namespace

TEST_CASE("3D beam input: elements, section frames, six dofs per node, moments", "[input][beam3d]") {
  const Spec s = build(Config::parse(kFrame, "b.cfg"));
  const model::Model& m = *s.model;
  REQUIRE(m.element_count() == 3);
  CHECK(m.node_count() == 4);  // one intermediate node on the column
  // 3 free nodes × 6 dofs.
  CHECK(m.size() == 18);
  const auto& column = dynamic_cast<const model::Beam3D&>(m.element(0));
  const auto& beam = dynamic_cast<const model::Beam3D&>(m.element(2));
  CHECK(column.reference_length() == Approx(1.0));
  CHECK((column.reference_frame().col(0) - Eigen::Vector3d::UnitZ()).norm() <= 1e-15);
  CHECK((column.reference_frame().col(1) - Eigen::Vector3d::UnitX()).norm() <= 1e-15);  // VX VY VZ = x
  CHECK((beam.reference_frame().col(1) - Eigen::Vector3d::UnitZ()).norm() <= 1e-15);
  CHECK((beam.reference_frame().col(2) + Eigen::Vector3d::UnitY()).norm() <= 1e-15);  // e₃ = x × z = −y
  const int tip = 2;  // node 3
  CHECK(m.reference_load()[m.equation(tip, Component::Rx)] == 1.5);
  CHECK(m.reference_load()[m.equation(tip, Component::Uy)] == -1.0);
  CHECK(m.equation(0, Component::Ry) == -1);
  // Section stiffnesses in order EA GA2 GA3 GJ EI2 EI3: a pure twist of the beam
  // element by α gives W = GJ α²/(2 L).
  Eigen::VectorXd u = Eigen::VectorXd::Zero(12);
  u[9] = 0.01;  // node b rx: about the member axis
  CHECK(beam.energy(u) == Approx(0.5 * 5.0 * 0.01 * 0.01 / 1.0).epsilon(1e-12));
}

TEST_CASE("3D beam input: the reference vector and a hinge axis are directions, of any size", "[input][beam3d]") {
  // (1e-300, 0, 0): its squared norm underflows, and Beam3D once took it for zero
  // (a fuzzing finding). The frame must be the one of (1, 0, 0).
  std::string t = kFrame;
  t.replace(t.find("5 6 7 1 0 0 2"), 13, "5 6 7 1e-300 0 0 2");
  const Spec tiny = build(Config::parse(t, "b.cfg"));
  const Spec unit = build(Config::parse(kFrame, "b.cfg"));
  const auto& a = dynamic_cast<const model::Beam3D&>(tiny.model->element(0));
  const auto& b = dynamic_cast<const model::Beam3D&>(unit.model->element(0));
  CHECK((a.reference_frame() - b.reference_frame()).norm() == 0.0);
  // A one-axis hinge about (0, 1e-300, 0) and a two-axis joint with a 1e-300 axis:
  // accepted, as about (0, 1, 0) is.
  CHECK(error_of(kFrame + "hinge = 2 10 about 0 1e-300 0 spring 2\n").empty());
  CHECK(error_of(kFrame + "hinge = 2 10 about 1e-300 0 0 0 0 1e-300 spring 2\n").empty());
  CHECK_THAT(error_of(kFrame + "hinge = 2 10 about 0 0 0\n"), Catch::Contains("the hinge axis (0, 0, 0) is zero"));
}

TEST_CASE("3D beam input: refused", "[input][beam3d]") {
  auto with = [](const std::string& from, const std::string& to) {
    std::string t = kFrame;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  CHECK(error_of(with("5 6 7 1 0 0 2", "5 6 7 0 0 3 2")) ==
        "b.cfg:6: key 'model.beam': VX VY VZ: the reference vector (0, 0, 3) is parallel to the member (it sets the "
        "section's local y axis) (valid: a vector not parallel to the member)");
  CHECK(error_of(with("40 30 5 6 7 1 0 0 2", "40 30 0 6 7 1 0 0 2")) ==
        "b.cfg:6: key 'model.beam': GJ must be positive, found 0 (valid: (0, inf))");
  CHECK(error_of(with("beam = 10 2 3 100 40 30 5 6 7 0 0 1", "beam = 10 2 3 100 40 30")) ==
        "b.cfg:7: key 'model.beam': expected 12 to 13 fields, found 6 (valid: ID NODE_A NODE_B EA GA2 GA3 GJ EI2 EI3 VX "
        "VY VZ [N])");
  CHECK(error_of(with("load = 3 rx 1.5", "load = 3 rw 1.5")) ==
        "b.cfg:9: key 'model.load': unknown component 'rw' (valid: ux|uy|uz|rx|ry|rz)");
}

TEST_CASE("3D beam input: a semitangential moment", "[input][beam3d][semitangential]") {
  // `load = 3 rx 1.5 semitangential`: the same reference load at ψ = 0 (r holds
  // m₀), but a non-proportional model whose load changes with the rotation.
  std::string text = kFrame;
  text.replace(text.find("load = 3 rx 1.5\n"), 16, "load = 3 rx 1.5 semitangential\n");
  const Spec st = build(Config::parse(text, "b.cfg"));
  const Spec psi = build(Config::parse(kFrame, "b.cfg"));
  const model::Model &m = *st.model, &m_psi = *psi.model;
  CHECK(m.has_moment_loads());
  CHECK_FALSE(m.is_proportional());
  CHECK_FALSE(m_psi.has_moment_loads());
  CHECK(m_psi.is_proportional());
  CHECK(m.reference_load() == m_psi.reference_load());
  // At a rotation of node 3 about y the two loads differ: the ψ-conjugate one stays
  // r, the semitangential one is |m₀| ∇τ (S.12).
  Vector q = Vector::Zero(m.size());
  q[m.equation(2, Component::Ry)] = 0.8;
  Vector g_st(m.size()), g_psi(m.size());
  m.dg_dlambda(q, 1.0, g_st);
  m_psi.dg_dlambda(q, 1.0, g_psi);
  CHECK((g_st - g_psi).norm() >= 1e-2);
  CHECK_THAT(error_of("[model]\ndim = 3\nnode = 1 0 0 0\nnode = 2 2 0 0\nbeam = 1 1 2 100 50 50 1 2 3 0 0 1\n"
                      "fix = 1 all rx ry rz\nload = 2 rz 1 follower\n"),
             Catch::Contains("b.cfg:7") && Catch::Contains("unknown moment type 'follower'"));
}

TEST_CASE("3D beam input: a quasitangential moment", "[input][beam3d][quasitangential]") {
  // `load = 3 rx 1.5 quasitangential` (S.14): r holds m₀ (the load at ψ = 0); at
  // ψ = 0.8 e_y the load is ∇P with P = m₀·(sin θ n) = 2w m₀·v: its rx part is
  // 1.5 sin(0.8)/0.8 (2 cos 0.4 · 1.5 sin 0.4/0.8), its ry part m₀·n cos θ = 0.
  std::string text = kFrame;
  text.replace(text.find("load = 3 rx 1.5\n"), 16, "load = 3 rx 1.5 quasitangential\n");
  const Spec qt = build(Config::parse(text, "b.cfg"));
  const Spec psi = build(Config::parse(kFrame, "b.cfg"));
  const model::Model &m = *qt.model, &m_psi = *psi.model;
  CHECK(m.has_moment_loads());
  CHECK_FALSE(m.is_proportional());
  CHECK(m.reference_load() == m_psi.reference_load());
  Vector q = Vector::Zero(m.size());
  q[m.equation(2, Component::Ry)] = 0.8;
  Vector g(m.size());
  m.dg_dlambda(q, 1.0, g);
  CHECK_THAT(g[m.equation(2, Component::Rx)], Catch::WithinAbs(-1.5 * std::sin(0.8) / 0.8, 1e-15));
  CHECK_THAT(g[m.equation(2, Component::Ry)], Catch::WithinAbs(0.0, 1e-15));
  // Both kinds at one node are two moments, not one of either kind: at ψ = 0.8 e_y
  // the semitangential one adds |m₀| ∂τ/∂ψ_x = 2 tan(0.4)/0.8 (S.12a).
  text.replace(text.find("load = 3 rx 1.5 quasitangential\n"), 32,
               "load = 3 rx 1.5 quasitangential\nload = 3 rx 1 semitangential\n");
  const Spec both = build(Config::parse(text, "b.cfg"));
  both.model->dg_dlambda(q, 1.0, g);
  CHECK_THAT(g[m.equation(2, Component::Rx)],
             Catch::WithinAbs(-1.5 * std::sin(0.8) / 0.8 - 2.0 * std::tan(0.4) / 0.8, 1e-14));
  CHECK_THAT(error_of("[model]\ndim = 3\nnode = 1 0 0 0\nnode = 2 2 0 0\nbeam = 1 1 2 100 50 50 1 2 3 0 0 1\n"
                      "fix = 1 all rx ry rz\nload = 2 uy 1 quasitangential\n"),
             Catch::Contains("b.cfg:7") &&
                 Catch::Contains("a quasitangential load is a moment of a 3D model: its component must be rx, ry or "
                                 "rz, found uy"));
}
