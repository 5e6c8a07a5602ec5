#pragma once
// The results directory and how Senda writes into it.
//
//   ResultsDir::check(dir, overwrite);           // before anything is computed: refuse, or not
//   ResultsDir d = ResultsDir::prepare(dir, overwrite);   // create; with overwrite remove Senda's old files
//   write_file_atomically(d.path() / "summary.json", text);
//
// ResultsDir owns the list of the files and directories Senda writes (and so
// may remove with --overwrite); nothing else in a directory is ever touched.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace senda::output {

// Writing results failed (disk full, permissions) after the run started.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The results directory cannot be used (exists without --overwrite, is a file,
// cannot be created or cleared): bad input, found before anything is written.
class DirectoryRefused : public std::runtime_error {
 public:
  DirectoryRefused(const std::filesystem::path& dir, const std::string& why)
      : std::runtime_error(dir.string() + ": " + why), dir_(dir) {}
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

class ResultsDir {
 public:
  // Refuses an existing directory unless overwrite, or a path that is not a
  // directory. No side effects. Throws DirectoryRefused.
  static void check(const std::filesystem::path& dir, bool overwrite);
  // check(), then creates the directory (and parents), or with overwrite removes
  // Senda's own files of an earlier run from it. Throws DirectoryRefused.
  static ResultsDir prepare(const std::filesystem::path& dir, bool overwrite);

  // The directory of a sweep (trace --sweep): check(), then creates it, or with
  // overwrite removes an earlier sweep's own files (sweep.*, plot.log) and the
  // trace files of its numbered sub-directories sweep/NNN (each removed when
  // nothing else is left in it). Throws DirectoryRefused.
  static ResultsDir prepare_sweep(const std::filesystem::path& dir, bool overwrite);

  const std::filesystem::path& path() const { return path_; }

  // The names Senda writes at the top of a results directory, and its own
  // sub-directories (modes, states, vtk, drawings, curves).
  static const std::vector<std::string>& own_files();
  static const std::vector<std::string>& own_directories();

 private:
  explicit ResultsDir(std::filesystem::path p) : path_(std::move(p)) {}
  std::filesystem::path path_;
};

// A file of whole rows (path.csv, history.csv): created new, unbuffered, each row
// handed to the operating system in one write() (after a kill every row written is on
// disk), and a row that could not be written whole (a full disk) truncated away, so
// that the file ends in whole rows (issue 20). Throws OutputError naming the file.
class RowFile {
 public:
  explicit RowFile(const std::filesystem::path& file);
  ~RowFile();
  RowFile(const RowFile&) = delete;
  RowFile& operator=(const RowFile&) = delete;
  void append(const std::string& text);
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  int fd_ = -1;
  long long size_ = 0;  // bytes of the whole rows written
};

// Writes text to file + ".tmp", then renames it to file: a reader never sees a
// half-written file. Throws OutputError.
void write_file_atomically(const std::filesystem::path& file, const std::string& text);

}  // namespace senda::output
