#pragma once
// Design studies of a .cfg model (docs/theory.md §8, docs/config.md [design]):
//
//   ConfigFamily family(config, "H", setup);        // the model for every value of H
//   auto s = parameter_sensitivities(config, setup, cp);   // dλ_cr/dμ, every [parameters] name
//   CurveResult c = follow_curve(config, setup, cp, "H", options, +1);
//   write_curve(dir, c, setup);                      // DIR/curves/<id>-<H>-<up|down>.csv
//
// The members of a family are rebuilt from the config with the parameter changed
// (io::build with the reference setup, which checks that the topology is the same).
// A value that makes the model invalid (a zero-length bar, a negative stiffness)
// ends a curve with termination invalid-model and the builder's message.
// Nothing here prints or exits.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "senda/critical/design.hpp"
#include "senda/io/builder.hpp"
#include "senda/io/config.hpp"

namespace senda::io {

class ConfigFamily final : public critical::ProblemFamily {
 public:
  // config and reference must outlive the family.
  ConfigFamily(const Config& config, std::string parameter, const Setup& reference);
  std::shared_ptr<const Problem> at(double mu) const override;
  const std::string& parameter() const { return parameter_; }

 private:
  const Config& config_;
  std::string parameter_;
  const Setup& reference_;
};

struct ParameterSensitivity {
  std::string parameter;
  double value = 0.0;  // the parameter's value in the run
  critical::Sensitivity sensitivity;
};

// dλ_cr/dμ of a located point for every named parameter (eqs. 8.2, 8.3); an
// invalid one carries its message (a parameter breaking a bifurcation, a model
// that cannot be built at μ ± δ).
std::vector<ParameterSensitivity> parameter_sensitivities(const Config& config, const Setup& reference,
                                                          const critical::CriticalPoint& cp);

// The [design] keys that shape a curve: mu_min, mu_max, step, max_points.
critical::CurveOptions curve_options(const Config& config, const Setup& setup);

struct CurveResult {
  std::string point;      // id of the start point (LP1, BP2, ...)
  std::string parameter;  // μ
  int direction = +1;     // +1: μ increasing at the start, −1 decreasing
  critical::CriticalCurve curve;
  std::filesystem::path file;  // relative to the results directory, once written
};

// Follows λ_cr(μ) from the located point cp of the run (eq. 8.4).
CurveResult follow_curve(const Config& config, const Setup& reference, const critical::CriticalPoint& cp,
                         const std::string& parameter, const critical::CurveOptions& options, int direction);

// curves/<point>-<parameter>-<up|down>.csv: point, <parameter>, lambda, kind,
// iterations, residual, arclength, then the tracked displacements of the setup.
// Sets c.file. Throws OutputError.
void write_curve(const std::filesystem::path& dir, CurveResult& c, const Setup& setup);
std::string curve_csv(const CurveResult& c, const Setup& setup);

// Imperfection sensitivity (trace --imperfection NAME=START:STOP:COUNT): the
// parameter NAME is an imperfection amplitude ε (a dead load, an offset of a
// node, written with ${NAME} in the file). The structure at ε = 0 gives λ_cr, its
// first critical point; each ε > 0 its first critical point λ_max (a limit point);
// 1 − λ_max/λ_cr = c ε^β is fitted by least squares on the logarithms.
struct ImperfectionRun {
  std::string parameter;
  std::vector<double> amplitudes;
  critical::ImperfectionStudy study;
  std::string perfect_id;  // id and kind of the perfect structure's first critical point
  std::string perfect_kind;
  std::string message;     // non-empty: the perfect structure gave no critical point
};
ImperfectionRun imperfection_study(const Config& config, const Setup& reference, const std::string& parameter,
                                   const std::vector<double>& amplitudes);
// imperfection.csv (amplitude,lambda_max,drop,found,message) and imperfection.json.
std::string imperfection_csv(const ImperfectionRun& r);
std::string imperfection_json(const ImperfectionRun& r);

// curves.gp: λ_cr against μ for every written curve (one line per file, its
// turns and coincidences marked), rendered as curves.png and curves.svg.
std::string curves_plot_script(const std::vector<CurveResult>& curves, int width_px = 800, int height_px = 600);

}  // namespace senda::io
