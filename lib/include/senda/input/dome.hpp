#pragma once
// A generator of large reference structures: the shallow single- or double-layer
// lattice dome, written as a .cfg (docs/config.md) for `trace`, the tests and the benchmarks.
//
// Geometry (one parameter, the number of rings n): the nodes of a triangular
// lattice within hexagonal distance n of the centre (ring k holds 6k nodes, 1 at
// k = 0), each ring placed on the circle of plan radius ρ_k = k a/n (a the base
// radius, the angle kept from the lattice position) and lifted onto the spherical cap
// of rise H: z = √(R² − ρ²) − √(R² − a²), R = (a² + H²)/(2H). Bars: the lattice's
// edges (each node joined to its six neighbours) but those between two rim nodes,
// pin-jointed, EA, Green–Lagrange.
// Supports: every rim node (ring n) pinned (ux uy uz). Unknowns 3(1 + 3n(n − 1)):
// n = 34 gives 10 101, n = 105 gives 98 283, n = 334 gives 1 001 001.
//
// Load: `Apex`, a point load at the crown (node 1, uz −P_star): the crown's six bars snap
// through as a von Mises star (an axisymmetric dimple), a limit point that exists at
// every n. Its closed-form bound, the star of the six crown bars with the first ring
// held fixed (each bar's vertical force EA (h − w) w (2h − w)/(2 L₀³), six of them,
// maximum at w = h(1 − 1/√3)):
//     P_star = (2/√3) EA (h₁/L₁)³,
// h₁ the height of the crown above ring 1 and L₁ the crown bars' length. The ring
// yields too, so the dome's limit load is below it; `star_limit_load()` returns it.
// The reference load is P_star, so that λ is the load in units of the bound: LP1 at
// λ ≈ 0.547 at every size (a load of 1 would put it at λ ~ EA (a/(nR))³, 1e-9 at
// n = 105, below the smallest first step the model resolves).
// `Distributed`: uz −P_star at every free node (the whole cap; its first critical
// points are dimples at many nodes at once, multiple by the six-fold symmetry).
//
// Two layers (`layers = 2`): one bottom node under the centroid of each of the top
// layer's 3n² upward triangles (q, r), (q + 1, r), (q, r + 1), `depth` × h₁ below the mean
// height of its three corners, joined to them by three web bars (a tetrahedron on a
// rigid triangle: every bottom node is held) and to its bottom neighbours in the
// lattice's three directions (chords); only the top rim is pinned, loads act on top
// nodes. 9n² more unknowns. The depth is in units of h₁ ∝ n⁻², not of the bar length
// a/n, so that the crown region is the same structure at every size (lengths in a/n,
// heights in h₁) and its snap LP1 exists at every n, as for one layer: LP1/P_star =
// 3.588, 3.591, 3.592, 3.593, 3.594 at 4, 5, 6, 8, 12 rings with depth 0.5, converging
// as n⁻² (tests/input/dome_test.cpp). A depth ∝ a/n instead makes the coarse domes
// thick plates (depth above the rise) with no critical point at all.
#include <string>

namespace senda::input {

enum class DomeLoad { Apex, Distributed };
const char* to_string(DomeLoad load);

struct DomeOptions {
  int rings = 4;            // n, the size: 3(1 + 3n(n − 1)) unknowns; [2, 2000]
  double base_radius = 1.0; // a (length)
  double rise = 0.1;        // H, the crown's height above the rim (length); (0, a)
  double EA = 1.0;          // axial stiffness of every bar (force)
  DomeLoad load = DomeLoad::Apex;
  int layers = 1;           // 1, or 2: a bottom layer under the top one (below)
  double depth = 0.5;       // layers = 2: the bottom layer's depth, in units of the spacing a/n; (0, 10]
  int max_steps = 60;       // stop.max_steps of the .cfg

  // "" when valid, else why not (the field and its range).
  std::string validate() const;
};

// The number of unknowns of the dome: 3 (1 + 3n(n − 1)), and 9n² more with two layers.
long dome_unknowns(int rings, int layers = 1);

// P_star above (force): the limit load of the six crown bars with ring 1 fixed.
double star_limit_load(const DomeOptions& o);

// The located LP1 meets critical.tolerance's default 1e-10 at every size: the SPL
// residual's round-off floor is ~5e-17 at 4 to 34 rings. (It was 0.06 eps EA/P_star,
// growing as n³, 4.7e-10 at 34 rings, while TrussBar formed the strain from l/l₀ − 1:
// the bars strain by ~(h₁/L₁)², 1e-5 at 34 rings, and kept eps/ε of ε's digits; the
// generator then loosened critical.tolerance. model/truss.hpp.)

// The height h₁ of the crown above ring 1 (length), the scale of the crown's snap.
double crown_height(const DomeOptions& o);

// The .cfg text of the dome: [problem], [model] (dim = 3, nodes by ring, bars, rim
// supports, load P_star), [continuation] (first step Δλ = 0.05), [stop]
// (max_steps; the crown's uz past 1.5 h₁), [branches] switch = false, [output] track
// = 1 uz.
// Requires validate() == "" (a logic error otherwise).
std::string dome_config(const DomeOptions& o);

}  // namespace senda::input
