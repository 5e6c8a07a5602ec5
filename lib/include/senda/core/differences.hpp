#pragma once
// Finite-difference steps shared by every layer that differentiates in λ
// (core's default dg_dlambda, the locator and the bifurcation equation).

namespace senda::core {

// Relative step in λ, applied as kLambdaStep · max(1, |λ|). It is cbrt(eps) ≈ 6.06e-6
// rounded: for central differences the truncation O(ε²) and the round-off O(eps/ε)
// balance there. The one-sided λ-differences of critical/ use the same step so
// that their K_λ and g_λλ see the same perturbation as dg_dlambda; changing it
// changes every result bit for bit.
constexpr double kLambdaStep = 6.0e-6;

}  // namespace senda::core
