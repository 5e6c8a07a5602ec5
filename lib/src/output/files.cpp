#include "senda/output/files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace senda::output {

namespace fs = std::filesystem;

RowFile::RowFile(const fs::path& file) : file_(file) {
  // Unbuffered: each row goes to the operating system in one write() (after a kill
  // every converged point is on disk), and a failed one leaves no buffered tail
  // that a later flush could add to the file.
  fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0) throw OutputError(file.string() + ": cannot create: " + std::strerror(errno));
}

RowFile::~RowFile() {
  if (fd_ >= 0) ::close(fd_);
}

void RowFile::append(const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ::ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;  // a signal (Ctrl-C) during the write: go on
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      // Back to the last whole row, so that the file never ends in a partial one.
      if (done > 0 && ::ftruncate(fd_, static_cast<off_t>(size_)) == 0) ::lseek(fd_, static_cast<off_t>(size_), SEEK_SET);
      throw OutputError(file_.string() + ": write failed: " + std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  size_ += static_cast<long long>(text.size());
}

const std::vector<std::string>& ResultsDir::own_files() {
  static const std::vector<std::string> files = {
      "path.csv", "summary.json", "summary.json.tmp", "plot.gp",          "critical.csv",     "plot.log",
      "curves.gp", "curves.png",  "curves.svg",       "curves.log",       "imperfection.csv", "imperfection.json",
      "cosim_history.csv", "energy.gp", "energy.png", "energy.svg", "energy.log",
      // simulate (output/history.hpp)
      "history.csv", "history.gp", "history.log", "u_t.png", "u_t.svg", "energy_t.png", "energy_t.svg", "phase.png",
      "phase.svg"};
  return files;
}

const std::vector<std::string>& ResultsDir::own_directories() {
  static const std::vector<std::string> dirs = {"modes", "states", "vtk", "drawings", "curves"};
  return dirs;
}

void ResultsDir::check(const fs::path& dir, bool overwrite) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st)) throw DirectoryRefused(dir, "exists and is not a directory");
    if (!overwrite)
      throw DirectoryRefused(dir, "the results directory exists; pass --overwrite to replace its results, or choose --out");
  }
}

ResultsDir ResultsDir::prepare(const fs::path& dir, bool overwrite) {
  check(dir, overwrite);
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    for (const std::string& f : own_files()) {
      fs::remove(dir / f, ec);
      if (ec) throw DirectoryRefused(dir / f, "cannot remove the old result: " + ec.message());
    }
    // The figures of the old run, lambda_<column>.png/.svg.
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      const std::string ext = e.path().extension().string();
      if (name.rfind("lambda_", 0) == 0 && (ext == ".png" || ext == ".svg")) fs::remove(e.path(), ec);
    }
    // The mode, state, VTK, drawing and curve files of the old run (Senda's own directories).
    for (const std::string& sub : own_directories()) {
      fs::remove_all(dir / sub, ec);
      if (ec) throw DirectoryRefused(dir / sub, "cannot remove the old results: " + ec.message());
    }
    return ResultsDir(dir);
  }
  fs::create_directories(dir, ec);
  if (ec) throw DirectoryRefused(dir, "cannot create the results directory: " + ec.message());
  return ResultsDir(dir);
}

ResultsDir ResultsDir::prepare_sweep(const fs::path& dir, bool overwrite) {
  check(dir, overwrite);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw DirectoryRefused(dir, "cannot create the results directory: " + ec.message());
  if (!overwrite) return ResultsDir(dir);
  for (const char* f : {"sweep.csv", "sweep.json", "sweep.gp", "sweep.png", "sweep.svg", "plot.log"}) fs::remove(dir / f, ec);
  const fs::path sub = dir / "sweep";
  if (!fs::is_directory(sub, ec)) return ResultsDir(dir);
  for (const fs::directory_entry& e : fs::directory_iterator(sub, ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    prepare(e.path(), true);  // removes the trace files only
    fs::remove(e.path(), ec);  // only if nothing else was there
  }
  return ResultsDir(dir);
}

void write_file_atomically(const fs::path& file, const std::string& text) {
  const fs::path tmp = file.string() + ".tmp";
  // Every failure names the file and says the system's reason, and removes the
  // temporary file (issue 20: a full disk left *.tmp files behind).
  const auto fail = [&](const std::string& what, int err) {
    ::unlink(tmp.c_str());
    throw OutputError(file.string() + ": " + what + ": " + std::strerror(err));
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int err = errno;
    throw OutputError(file.string() + ": cannot create " + tmp.filename().string() + ": " + std::strerror(err));
  }
  std::size_t done = 0;
  while (done < text.size()) {
    const ::ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      ::close(fd);
      fail("write failed", err);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) fail("write failed", errno);  // NFS, quotas: the error may come at close
  if (::rename(tmp.c_str(), file.c_str()) != 0) fail("cannot rename " + tmp.filename().string() + " to it", errno);
}

}  // namespace senda::output
