#include "senda/output/plot.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/core.h>

extern char** environ;

namespace senda::output {

namespace fs = std::filesystem;

namespace {

// A gnuplot single-quoted string: only ' is special, written ''.
std::string gp_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "''";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out + "'";
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// "u_3_uy" → "u_3_uy: node 3, uy"; anything else is returned as it is.
std::string axis_label(const std::string& column) {
  const auto a = column.find('_');
  const auto b = column.rfind('_');
  if (column.rfind("u_", 0) != 0 || a == b) return column;
  const std::string node = column.substr(a + 1, b - a - 1), comp = column.substr(b + 1);
  const char* what = comp == "rz" ? "rotation" : "displacement";
  return fmt::format("{}: {} of node {}, {}", column, what, node, comp);
}

std::string branch_title(const analysis::TraceResult& s, int id) {
  if (id == 0) return "primary path";
  for (const critical::Branch& b : s.branches)
    if (b.id == id && !b.start_point.empty())
      return fmt::format("branch {} from {} ({})", id, b.start_point, b.direction > 0 ? "+" : "-");
  return fmt::format("branch {}", id);
}

// strtod, which (unlike std::stod) accepts subnormal numbers such as 4e-311,
// written by %.17g for a displacement that is zero up to round-off.
double number(const std::string& field) {
  char* end = nullptr;
  const double v = std::strtod(field.c_str(), &end);
  if (field.empty() || end != field.c_str() + field.size()) throw std::invalid_argument(field);
  return v;
}

}  // namespace

PathClasses read_path_classes(const fs::path& path_csv) {
  std::ifstream in(path_csv);
  if (!in) throw OutputError(path_csv.string() + ": cannot read: " + std::strerror(errno));
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split_csv_line(line);
  if (header.size() < 9 || header[0] != "point" || header[1] != "branch" || header[2] != "lambda" ||
      header.back() != "negative_pivots")
    throw OutputError(path_csv.string() + ": not a Senda path.csv (header '" + line + "')");
  const std::size_t neg = header.size() - 1;
  const std::size_t tracked = header.size() - 9;  // point,branch,lambda … 5 columns after them
  std::set<int> stable, unstable, all;
  PathClasses c;
  c.column_min.assign(tracked, 0.0);
  c.column_max.assign(tracked, 0.0);
  int row = 1;
  while (std::getline(in, line)) {
    ++row;
    if (line.empty()) continue;
    const std::vector<std::string> f = split_csv_line(line);
    if (f.size() != header.size())
      throw OutputError(fmt::format("{}:{}: {} fields, the header has {}", path_csv.string(), row, f.size(),
                                    header.size()));
    try {
      const int b = std::stoi(f[1]);
      if (!f[neg].empty())  // empty: undetermined (a branch's first point, a bifurcation point)
        (std::stoi(f[neg]) > 0 ? unstable : stable).insert(b);
      const double lambda = number(f[2]);
      c.lambda_min = all.empty() ? lambda : std::min(c.lambda_min, lambda);
      c.lambda_max = all.empty() ? lambda : std::max(c.lambda_max, lambda);
      for (std::size_t i = 0; i < tracked; ++i) {
        const double u = number(f[3 + i]);
        c.column_min[i] = all.empty() ? u : std::min(c.column_min[i], u);
        c.column_max[i] = all.empty() ? u : std::max(c.column_max[i], u);
      }
      all.insert(b);
    } catch (const std::exception&) {
      throw OutputError(fmt::format("{}:{}: a field is not a number", path_csv.string(), row));
    }
  }
  for (int b : all) {
    c.branches.push_back(b);
    c.has_stable.push_back(stable.count(b) > 0);
    c.has_unstable.push_back(unstable.count(b) > 0);
  }
  return c;
}

std::string critical_csv(const RunInfo& info, const analysis::TraceResult& s) {
  std::string out = "id,kind,branch,lambda";
  for (const std::string& c : info.track_columns) out += "," + c;
  out += ",converged\n";
  for (std::size_t k = 0; k < s.critical_points.size(); ++k) {
    const critical::CriticalPoint& cp = s.critical_points[k].point;
    // A point that was not located has empty λ and displacements (gnuplot skips it).
    out += fmt::format("{},{},{},", cp.id, critical::to_string(cp.kind), cp.branches.empty() ? 0 : cp.branches.front());
    if (cp.converged) out += fmt::format("{:.17g}", cp.lambda);
    for (std::size_t i = 0; i < info.track_columns.size(); ++i) {
      out += ",";
      if (cp.converged)
        out += fmt::format("{:.17g}", i < s.critical_points[k].tracked.size() ? s.critical_points[k].tracked[i] : 0.0);
    }
    out += cp.converged ? ",1\n" : ",0\n";
  }
  return out;
}

std::vector<std::string> figure_names(const RunInfo& info) {
  std::vector<std::string> out;
  for (const std::string& c : info.track_columns)
    for (const char* ext : {"png", "svg"}) out.push_back(fmt::format("lambda_{}.{}", c, ext));
  return out;
}

std::string plot_script(const RunInfo& info, const analysis::TraceResult& s, const PathClasses& classes, const PlotOptions& o) {
  const int n = static_cast<int>(info.track_columns.size());
  std::string cols, path_header = "point,branch,lambda", crit_header = "id,kind,branch,lambda";
  for (const std::string& c : info.track_columns) {
    cols += (cols.empty() ? "" : " ") + c;
    path_header += "," + c;
    crit_header += "," + c;
  }
  path_header += ",iterations,residual,step_length,det_sign,negative_pivots";
  crit_header += ",converged";
  std::string title = info.problem;
  if (!info.title.empty()) title += ": " + info.title;

  std::string g;
  auto add = [&g](const std::string& line) { g += line + "\n"; };
  add(fmt::format("# plot.gp: bifurcation diagrams of {}, written by Senda's trace for {}.", info.problem, info.config));
  add("#");
  add("# Run it in this directory:   gnuplot plot.gp");
  add("# It reads path.csv and critical.csv and writes, for every tracked displacement,");
  add("# lambda_<column>.png and lambda_<column>.svg: the load factor against it.");
  add("# Edit anything below to restyle the figures. trace --plot (or output.plot = true)");
  add("# run again into this directory writes this file again.");
  add("#");
  add("# Stability comes from the inertia of the tangent stiffness K: a point is stable when");
  add("# the LDL^T of K has no negative pivot (column negative_pivots == 0). A segment between");
  add("# two consecutive points of a branch is solid when the point it starts from is stable,");
  add("# dashed when that point is unstable; so a curve has no gap at a critical point.");
  add("");
  add("set encoding utf8");
  add("set datafile separator ','");
  add("");
  add("# ---- size, fonts, colours, lines ---------------------------------------------");
  add(fmt::format("width = {}", o.width_px));
  add(fmt::format("height = {}", o.height_px));
  add("font = 'Sans,11'");
  add("# branch k is drawn with line type k+1 (Okabe-Ito colours, cycling after 8)");
  const char* palette[] = {"#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#8B6D00"};
  for (int i = 0; i < 8; ++i) add(fmt::format("set linetype {} lc rgb '{}' dt solid", i + 1, palette[i]));
  add("set linetype cycle 8");
  add("stable_width = 2.0");
  add("unstable_width = 1.5");
  add("unstable_dash = 2       # dash type of the unstable segments");
  add("marker_size = 1.2");
  {
    // The key below the plot, in columns; the bottom margin makes room for it.
    int entries = 1;  // "stable"
    entries += static_cast<int>(classes.branches.size());
    bool any_u = false;
    for (bool u : classes.has_unstable) any_u = any_u || u;
    entries += any_u ? 1 : 0;
    bool kinds_present[4] = {false, false, false, false};
    for (const analysis::CriticalRecord& r : s.critical_points)
      kinds_present[!r.point.converged ? 3 : static_cast<int>(r.point.kind)] = true;
    for (bool k : kinds_present) entries += k ? 1 : 0;
    const int key_cols = entries > 16 ? 3 : 2;
    const int key_rows = (entries + key_cols - 1) / key_cols;
    add(fmt::format("set key outside below center horizontal maxcols {} samplen 3 font ',10'", key_cols));
    add(fmt::format("set bmargin {}        # room for the key: its rows + 4", key_rows + 4));
  }
  add("set grid lc rgb '#dddddd'");
  add(fmt::format("set title {}", gp_quote(title)));
  add("set ylabel 'load factor λ'");
  add("");
  add("# ---- columns ---------------------------------------------------------------");
  add("# path.csv:     " + path_header);
  add(fmt::format("P_POINT = 1; P_BRANCH = 2; P_LAMBDA = 3; P_NEG = {}", 8 + n));
  add("# critical.csv: " + crit_header);
  add(fmt::format("C_ID = 1; C_KIND = 2; C_LAMBDA = 4; C_CONVERGED = {}", 5 + n));
  add("# the tracked displacements: tracked i is column 3+i of path.csv, 4+i of critical.csv");
  add(fmt::format("columns = {}", gp_quote(cols)));
  {
    std::string labels;
    for (const std::string& c : info.track_columns) labels += (labels.empty() ? "" : ", ") + gp_quote(axis_label(c));
    add(fmt::format("array xlabels[{}] = [{}]", n, labels));
  }
  add("");
  add("# ---- filters -----------------------------------------------------------------");
  add("# on(b, s): is this row of path.csv the end of a segment of branch b in class s");
  add("# (0 stable, 1 unstable)? A row is kept when it, or the row before it on the same");
  add("# branch, is of class s; a segment is drawn where both of its ends are kept.");
  add("# (Rows of a branch are consecutive and start with point 0.) The first point of a");
  add("# secondary branch is a bifurcation point: its negative_pivots is empty (undetermined),");
  add("# it is kept in both classes and its segment takes the class of the next point.");
  add("unstable(np) = (np > 0 ? 1 : 0)");
  add("cls(np, s) = (np != np ? s : unstable(np))   # np != np: empty in path.csv (NaN)");
  add("prev_np = 0");
  add("on(b, s) = (p_np = (column(P_POINT) == 0 || prev_np != prev_np ? column(P_NEG) : prev_np), \\");
  add("            prev_np = column(P_NEG), \\");
  add("            column(P_BRANCH) == b && (cls(column(P_NEG), s) == s || cls(p_np, s) == s))");
  add("is_kind(k) = (strcol(C_KIND) eq k && column(C_CONVERGED) == 1)");
  add("");
  const int m = static_cast<int>(s.critical_points.size());
  if (m > 0) {
    // Labels: critical points closer than 3 % of both ranges of a figure share one
    // label ("LP1, LP2" at the first of them), so that no two ids overlap.
    add("# ---- labels of the critical points ----------------------------------------");
    add("# point_labels[(i - 1) * NCP + r]: the label of row r of critical.csv in the figure");
    add("# of tracked column i; ids of points at the same place are joined, the others empty.");
    add(fmt::format("NCP = {}", m));
    std::string labels;
    auto span = [](double lo, double hi) { return hi > lo ? hi - lo : std::max(1e-300, std::abs(hi)); };
    for (int i = 0; i < n; ++i) {
      double xlo = i < static_cast<int>(classes.column_min.size()) ? classes.column_min[i] : 0.0;
      double xhi = i < static_cast<int>(classes.column_max.size()) ? classes.column_max[i] : 0.0;
      double ylo = classes.lambda_min, yhi = classes.lambda_max;
      auto x_of = [&](int k) {
        const std::vector<double>& u = s.critical_points[static_cast<std::size_t>(k)].tracked;
        return i < static_cast<int>(u.size())
                   ? u[static_cast<std::size_t>(i)]
                   : 0.0;
      };
      const auto located = [&](int k) { return s.critical_points[static_cast<std::size_t>(k)].point.converged; };
      for (int k = 0; k < m; ++k) {
        if (!located(k)) continue;  // not drawn: no position
        xlo = std::min(xlo, x_of(k));
        xhi = std::max(xhi, x_of(k));
        ylo = std::min(ylo, s.critical_points[k].point.lambda);
        yhi = std::max(yhi, s.critical_points[k].point.lambda);
      }
      const double dx = 0.03 * span(xlo, xhi), dy = 0.03 * span(ylo, yhi);
      std::vector<std::string> text(m);
      std::vector<int> leader(m, -1);
      for (int k = 0; k < m; ++k) {
        if (!located(k)) continue;  // no label (its row has no position)
        for (int j = 0; j < k && leader[k] < 0; ++j)
          if (located(j) && leader[j] < 0 && std::abs(x_of(k) - x_of(j)) <= dx &&
              std::abs(s.critical_points[k].point.lambda - s.critical_points[j].point.lambda) <= dy)
            leader[k] = j;
        if (leader[k] < 0) text[k] = s.critical_points[k].point.id;
        else text[leader[k]] += ", " + s.critical_points[k].point.id;
      }
      for (int k = 0; k < m; ++k) labels += (labels.empty() ? "" : ", ") + gp_quote(text[k]);
    }
    add(fmt::format("array point_labels[{}] = [{}]", n * m, labels));
    add("");
  }
  add("# ---- one figure per tracked displacement, as PNG and SVG ----------------------");
  add("do for [i = 1:words(columns)] {");
  add("  X = 3 + i");
  add("  XC = 4 + i");
  add("  set xlabel xlabels[i]");
  add("  do for [format in 'png svg'] {");
  add("    if (format eq 'png') {");
  add("      set terminal pngcairo size width, height font font noenhanced");
  add("    } else {");
  add("      set terminal svg size width, height font font noenhanced background '#ffffff'");
  add("    }");
  add("    set output sprintf('lambda_%s.%s', word(columns, i), format)");

  std::vector<std::string> clauses;
  bool any_unstable = false;
  for (std::size_t k = 0; k < classes.branches.size(); ++k) {
    const int b = classes.branches[k];
    std::string t = "title " + gp_quote(branch_title(s, b));
    const std::string using_ = fmt::format(
        "'path.csv' skip 1 using (k_ = on({0}, {{}}), k_ ? column(X) : NaN):(k_ ? column(P_LAMBDA) : NaN)", b);
    if (classes.has_stable[k]) {
      clauses.push_back(fmt::format(fmt::runtime(using_), 0) +
                        fmt::format(" with lines lt {} lw stable_width {}", b + 1, t));
      t = "notitle";
    }
    if (classes.has_unstable[k]) {
      any_unstable = true;
      clauses.push_back(fmt::format(fmt::runtime(using_), 1) +
                        fmt::format(" with lines lt {} lw unstable_width dt unstable_dash {}", b + 1, t));
    }
  }
  clauses.push_back("keyentry with lines lc rgb 'black' lw stable_width title 'stable (K positive definite)'");
  if (any_unstable)
    clauses.push_back(
        "keyentry with lines lc rgb 'black' lw unstable_width dt unstable_dash title 'unstable (negative pivots)'");
  // Markers for the kinds present. A point that was not located has no position
  // (critical.csv leaves its λ empty): it is not drawn, the key says how many.
  bool kinds[3] = {false, false, false};
  int unlocated = 0;
  for (const analysis::CriticalRecord& r : s.critical_points) {
    const critical::CriticalPoint& cp = r.point;
    if (!cp.converged) ++unlocated;
    else kinds[static_cast<int>(cp.kind == critical::CriticalKind::Limit         ? 0
                                : cp.kind == critical::CriticalKind::Bifurcation ? 1
                                                                                 : 2)] = true;
  }
  const char* kind_name[] = {"limit", "bifurcation", "multiple"};
  const char* kind_title[] = {"limit point", "bifurcation point", "multiple point"};
  const int kind_pt[] = {7, 5, 9};
  for (int k = 0; k < 3; ++k)
    if (kinds[k])
      clauses.push_back(fmt::format(
          "'critical.csv' skip 1 using (is_kind('{}') ? column(XC) : NaN):(column(C_LAMBDA)) with points pt {} "
          "ps marker_size lc rgb 'black' title '{}'",
          kind_name[k], kind_pt[k], kind_title[k]));
  if (unlocated > 0)
    clauses.push_back(fmt::format(
        "keyentry with points pt 6 ps marker_size lc rgb 'black' title '{} not located (not drawn; brackets in "
        "summary.json)'",
        unlocated == 1 ? std::string("1 critical point") : std::to_string(unlocated) + " critical points"));
  if (!s.critical_points.empty())
    clauses.push_back(
        "'critical.csv' skip 1 using (column(XC)):(column(C_LAMBDA)):(point_labels[(i - 1) * NCP + "
        "int(column(0)) + 1]) with labels left offset char 0.7, char 0.6 notitle");

  add("    plot \\");
  for (std::size_t k = 0; k < clauses.size(); ++k)
    add("      " + clauses[k] + (k + 1 < clauses.size() ? ", \\" : ""));
  add("    set output");
  add("  }");
  add("}");
  return g;
}

PlotFiles write_plot_files(const fs::path& dir, const RunInfo& info, const analysis::TraceResult& s, const PlotOptions& options) {
  PlotFiles f;
  f.dir = dir;
  f.script = dir / "plot.gp";
  f.critical = dir / "critical.csv";
  for (const std::string& name : figure_names(info)) f.figures.push_back(dir / name);
  const PathClasses classes = read_path_classes(dir / "path.csv");
  write_file_atomically(f.critical, critical_csv(info, s));
  write_file_atomically(f.script, plot_script(info, s, classes, options));
  return f;
}

const char* to_string(RenderStatus s) {
  switch (s) {
    case RenderStatus::Rendered: return "rendered";
    case RenderStatus::GnuplotNotFound: return "gnuplot-not-found";
    case RenderStatus::GnuplotFailed: return "gnuplot-failed";
    case RenderStatus::MissingFigures: return "missing-figures";
  }
  return "?";
}

RenderResult render_plot(const PlotFiles& files, const std::string& gnuplot) {
  RenderResult r;
  const fs::path dir = fs::absolute(files.dir);
  r.log = files.log.empty() ? dir / "plot.log" : fs::absolute(files.log);
  const std::string log = r.log.string(), dir_s = dir.string(), script = files.script.filename().string();
  const std::string rerun = fmt::format("run 'gnuplot {}' in {} to draw the figures", script, dir_s);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addchdir_np(&actions, dir_s.c_str());
  std::vector<std::string> args = {gnuplot, script};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, gnuplot.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    r.status = rc == ENOENT || rc == EACCES || rc == ENOTDIR ? RenderStatus::GnuplotNotFound
                                                              : RenderStatus::GnuplotFailed;
    r.message = r.status == RenderStatus::GnuplotNotFound
                    ? fmt::format("{} not found ({}): install gnuplot (Debian package gnuplot-nox), then {}",
                                  gnuplot, std::strerror(rc), rerun)
                    : fmt::format("cannot start {}: {}; {}", gnuplot, std::strerror(rc), rerun);
    return r;
  }
  int status = 0;
  pid_t w;
  do {
    w = waitpid(pid, &status, 0);
  } while (w < 0 && errno == EINTR);
  if (w < 0) {
    r.message = fmt::format("waiting for {} failed: {}; {}", gnuplot, std::strerror(errno), rerun);
    return r;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    r.status = RenderStatus::GnuplotFailed;
    r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    // The last line of the log says what gnuplot refused.
    std::string last, line;
    std::ifstream in(r.log);
    while (std::getline(in, line))
      if (!line.empty()) last = line;
    r.message = WIFEXITED(status)
                    ? fmt::format("{} {} exited with status {} in {} (output in {}){}", gnuplot, script,
                                  r.exit_status, dir_s, log, last.empty() ? "" : ": " + last)
                    : fmt::format("{} {} was killed by signal {} in {}", gnuplot, script, WTERMSIG(status), dir_s);
    return r;
  }
  r.exit_status = 0;
  std::string missing;
  for (const fs::path& f : files.figures) {
    std::error_code ec;
    const fs::path p = fs::absolute(f);
    if (!fs::is_regular_file(p, ec) || fs::file_size(p, ec) == 0) missing += (missing.empty() ? "" : ", ") + p.string();
  }
  if (!missing.empty()) {
    r.status = RenderStatus::MissingFigures;
    r.message = fmt::format("{} {} exited 0 but did not write {} (output in {})", gnuplot, script, missing, log);
    return r;
  }
  r.status = RenderStatus::Rendered;
  r.message = fmt::format("{} figures in {} (script {}, {})", files.figures.size(), dir_s, script,
                          "restyle by editing it and running 'gnuplot " + script + "' there");
  return r;
}

std::string series_plot_script(const SeriesFigure& f, const PlotOptions& o) {
  std::string out;
  auto add = [&](const std::string& line) { out += line + "\n"; };
  add("# " + f.title + " (written by Senda; edit and run 'gnuplot " + f.basename + ".gp')");
  add("set datafile separator ','");
  add(fmt::format("width = {}; height = {}", o.width_px, o.height_px));
  add("set title " + gp_quote(f.title) + " noenhanced");
  add("set xlabel " + gp_quote(f.x_label) + " noenhanced");
  add("set ylabel " + gp_quote(f.y_label) + " noenhanced");
  add("set key outside bottom center horizontal noenhanced");
  add("set grid");
  add("do for [format in 'png svg'] {");
  add("  if (format eq 'png') {");
  add("    set terminal pngcairo size width, height noenhanced");
  add("  } else {");
  add("    set terminal svg size width, height noenhanced background '#ffffff'");
  add("  }");
  add("  set output sprintf('%s.%s', " + gp_quote(f.basename) + ", format)");
  std::string plot = "  plot ";
  for (std::size_t k = 0; k < f.curves.size(); ++k) {
    const SeriesCurve& c = f.curves[k];
    plot += (k ? ", \\\n       " : "") + gp_quote(c.file) + " using " + gp_quote(c.x_column) + ":" + gp_quote(c.y_column) +
            fmt::format(" with lines lt {} lw 1.5 title ", k + 1) + gp_quote(c.title);
  }
  add(plot);
  add("  set output");
  add("}");
  return out;
}

}  // namespace senda::output
