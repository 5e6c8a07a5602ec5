#pragma once
// Drawings of the structure as plain SVG text (no dependency), in DIR/drawings/:
//
//   structure.svg     the undeformed structure, nodes labelled with their ids
//   <ID>_shape.svg    the deformed shape at critical point ID, true scale, over
//                     the undeformed structure in grey
//   <ID>_mode.svg     its mode (the translations), scaled so that the largest
//                     nodal translation is kModeDrawingFraction of the structure's
//                     size (the longest side of its bounding box), over the undeformed
//                     structure in grey
//
// Every element is one <polyline> per layer (class "undeformed" in
// structure.svg; "reference" (the grey undeformed one) and "deformed" or "mode"
// in the others; a spring to ground is a short stub below its node). 2D models are
// drawn in their x-y plane; 3D models in an axonometric view (azimuth 30°,
// elevation 25°, z up). Each drawing carries a title (<text class="title">) and
// a caption naming the point, its kind, λ and the scale.
#include <filesystem>
#include <string>

#include "senda/critical/critical_point.hpp"
#include "senda/model/model.hpp"

namespace senda::output {

// Largest nodal translation of a mode drawing as a fraction of the structure's size.
inline constexpr double kModeDrawingFraction = 0.1;

struct Drawing {
  std::string title;
  std::string caption;          // second line of text (may be empty)
  const Vector* u = nullptr;    // displacements to draw (null: the undeformed structure only)
  double scale = 1.0;           // multiplies u
  const char* layer = "deformed";  // class of the displaced layer: "deformed" or "mode"
  bool node_labels = false;     // label the nodes with their ids
};

// The SVG text of a drawing of model m.
std::string svg_text(const model::Model& m, const Drawing& d);

// The scale that draws the largest nodal translation of v as fraction × the
// structure's size (0 for a vector without translations).
double mode_scale(const model::Model& m, const Vector& v, double fraction = kModeDrawingFraction);

// DIR/drawings/structure.svg. Throws OutputError.
void write_structure_drawing(const std::filesystem::path& dir, const model::Model& m, const std::string& title);
// DIR/drawings/<ID>_shape.svg and, for a point with a mode, <ID>_mode.svg.
// Nothing for a critical point that was not located. Throws OutputError.
void write_critical_drawings(const std::filesystem::path& dir, const model::Model& m,
                             const critical::CriticalPoint& cp);

}  // namespace senda::output
