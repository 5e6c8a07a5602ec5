#pragma once
// Deformed shapes for ParaView: VTK XML UnstructuredGrid files (.vtu, ASCII)
// and ParaView collection indexes (.pvd), in DIR/vtk/.
//
//   DIR/vtk/branch<B>.pvd       one collection per branch B (0 = primary path),
//                               timestep = the point index on the branch
//   DIR/vtk/b<B>_p<NNNNNN>.vtu  the structure at point NNNNNN of branch B
//   DIR/vtk/modes.pvd           the critical points in the order located (an
//                               empty collection when there are none),
//                               timestep = 0, 1, 2, ... (name = the point's id)
//   DIR/vtk/mode_<ID>.vtu       the structure at critical point ID with its mode
//
// Every .vtu: points = the node coordinates of the undeformed structure (z = 0
// in 2D), one cell per element (a bar, a beam element or a spring between two
// nodes is a VTK_LINE, a spring to ground a VTK_VERTEX), point data
// "displacement" (ux uy uz), "rotation" (rx ry rz; only for models with
// rotational dofs, i.e. frames), for a mode file also "mode" (the translations
// of the mode, scaled to max |phi_j| = 1, as in DIR/modes/<ID>.csv) and
// "mode_rotation" (frames); cell data "element" (the element's index, 0-based,
// in input order); field data "lambda", "point" (for a mode: the path point
// after the critical point) and "branch". Warp By Vector
// with "displacement" (scale 1) shows the deformed shape, with "mode" the mode.
//
// Each .vtu is written once, when its point is produced; the .pvd indexes are
// rewritten whole through a temporary file and a rename, so that a reader (or
// a run killed in the middle) never sees a half-written index. On long runs an
// index is rewritten after each of its first 200 entries, then whenever it has
// grown by 1 % (and always by finish()), which keeps the cost linear.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/critical_point.hpp"
#include "senda/model/model.hpp"

namespace senda::output {

// The text of one .vtu: the structure in state q (displacements); with a mode
// (same size as q), its "mode" arrays too. Field data: lambda, point, branch.
std::string vtu_text(const model::Model& m, const Vector& q, double lambda, int point, int branch,
                     const Vector* mode = nullptr);

struct PvdEntry {
  double timestep = 0.0;
  std::string file;  // relative to the .pvd
  std::string name;  // optional, written as the "name" attribute
};
// The text of a .pvd collection.
std::string pvd_text(const std::vector<PvdEntry>& entries);

class VtkWriter {
 public:
  // Creates DIR/vtk. The model must outlive the writer. Throws OutputError.
  VtkWriter(const std::filesystem::path& dir, const model::Model& m);
  ~VtkWriter();
  VtkWriter(const VtkWriter&) = delete;
  VtkWriter& operator=(const VtkWriter&) = delete;

  // DIR/vtk/b<branch>_p<index>.vtu and its entry in branch<branch>.pvd. Throws OutputError.
  void write_point(const continuation::PathPoint& p, int branch);
  // DIR/vtk/mode_<id>.vtu (the critical state and its mode) and its entry in
  // modes.pvd; nothing for a point without a mode. Throws OutputError.
  void write_mode(const critical::CriticalPoint& cp, int branch);
  // Rewrites every index that is behind. Throws OutputError. The destructor
  // does the same and ignores errors.
  void finish();

  std::filesystem::path dir() const { return dir_; }

 private:
  struct Index {
    std::vector<PvdEntry> entries;
    std::size_t written = 0;  // entries in the file on disk
    bool on_disk = false;     // written at least once (modes.pvd exists, maybe empty, after finish())
  };
  void update(const std::string& pvd_name, Index& index, bool force);

  std::filesystem::path dir_;  // DIR/vtk
  const model::Model& model_;
  std::map<int, Index> branches_;
  Index modes_;
};

}  // namespace senda::output
