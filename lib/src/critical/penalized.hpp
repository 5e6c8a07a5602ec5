#pragma once
// The penalized tangent K̃ = K + ρ eᵢeᵢᵀ (docs/theory.md §4-§5), internal to critical/.
//
// Notation        code
//   i              the pivot equation (largest |φᵢ|), CriticalPoint::pivot
//   slot           index of K_ii in K.valuePtr()
//   ρ              rho: mean |diag K| + |K_ii|, floored; CriticalPoint::penalty
//   K̃              work, a copy of K with ρ added at slot
//
// K̃ is regular at a simple critical point where K is singular with φᵢ ≠ 0; the
// locator (eqs. 4.3, 4.4), the particular solution v, the sensitivity (eq. 8.3)
// and the inertia along a critical curve (eq. 8.4) all solve with it. One place
// forms it, so that they agree on the slot and on ρ.
#include "senda/core/problem.hpp"
#include "senda/linalg/factorization.hpp"

namespace senda::critical::penalized {

// Index of K_ii in K.valuePtr(), or −1 when the pattern holds no diagonal entry
// in column i. K must be compressed (sorted row indices per column).
int diagonal_slot(const SparseMatrix& K, int i);

// ρ = given when given > 0, else max(floor, mean |diag K| + |K_ii|). |K_ii| is added
// so that K_ii + ρ cannot cancel (it would in a one-unknown problem, where K_ii is
// the whole, nearly singular, matrix); the floor keeps ρ from vanishing when a
// curve of critical points restarts at a critical point of such a problem.
double rho(const SparseMatrix& K, int slot, double given, double floor);

// work = K + ρ e_slot, then its numeric factorization by fac (whose analysis is of
// K's pattern). work must have K's pattern or be empty; it is overwritten.
linalg::FactorStatus factorize(const SparseMatrix& K, int slot, double rho, SparseMatrix& work,
                               linalg::SymmetricFactorization& fac);

// The small dense systems of the bordering (eqs. 4.6, 4.7, 8.3) couple unknowns in
// different units (δλ against μ or s): A's columns can differ by twenty orders of
// magnitude, as the units of length and force do (a dome 1e-8 across: H_iλ = 7e-11
// next to 1 − ρH_ii ~ 1). FullPivLU's rank test, relative to A's largest entry, then
// calls the small column null and sets δλ to 0: Newton went on with λ frozen.
// Solved with the columns equilibrated (each by its largest |entry|), and the
// unknowns scaled back, the test sees the system's own conditioning.
Eigen::Vector2d solve_equilibrated(Eigen::Matrix2d A, const Eigen::Vector2d& b);

}  // namespace senda::critical::penalized
