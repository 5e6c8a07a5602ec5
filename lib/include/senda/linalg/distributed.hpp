#pragma once
// Distributed factorizations (build option SENDA_MPI, docs/performance.md
// "Distributed runs"). Under `mpirun -np P`, rank 0 runs the whole analysis and
// assembles every matrix; the MUMPS instances of its SymmetricFactorization
// objects are mirrored on ranks 1 … P−1, which only take part in MUMPS's
// collective calls (analysis, factorization, solve, end): before each call rank 0
// broadcasts a command (which instance, JOB, ICNTL, CNTL) and the workers make
// the same call on their copy. Everything else (model, path, files, output) is
// rank 0's alone.
//
// One MpiSession per process, made first thing in main (it is the process's MPI
// lifetime; the library keeps no global state of its own, it asks MPI for the
// rank and size of MPI_COMM_WORLD). Without SENDA_MPI it is a session of one
// process that does nothing.
#include <vector>

namespace senda::linalg {

// True when this build's MUMPS is the MPI one (SENDA_MPI=ON).
bool mpi_build();
// The processes of MPI_COMM_WORLD while MPI runs; 1 otherwise (and without SENDA_MPI).
int mpi_processes();

class MpiSession {
 public:
  // MPI_Init_thread (SENDA_MPI), asking for MPI_THREAD_MULTIPLE.
  MpiSession(int& argc, char**& argv);
  // finish(), then MPI_Finalize.
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // True when rank 0 may factorize in several threads at once (a sweep's
  // --jobs): one process with MPI_THREAD_MULTIPLE, or a build without MPI. With
  // P > 1 the workers mirror one call at a time, so the calls must be serial.
  bool concurrent_factorizations() const { return size_ == 1 && threads_ok_; }

  // Ranks > 0: mirror rank 0's MUMPS instances until rank 0 calls finish().
  // Throws std::runtime_error on a malformed command or a failed MUMPS call.
  void serve_workers();
  // Rank 0: tells the workers to stop (every exit path must reach it, or they
  // wait for ever; the destructor calls it). Returns the peak resident memory
  // (MiB, getrusage) of every rank, rank 0 first; later calls return the same.
  std::vector<double> finish();
  // Ends every rank at once (MPI_Abort): the last resort when rank 0 cannot
  // reach finish(). Without SENDA_MPI, std::_Exit(code).
  [[noreturn]] void abort(int code) const;

 private:
  int rank_ = 0, size_ = 1;
  bool threads_ok_ = true;
  bool finished_ = false;
  bool initialized_here_ = false;
  std::vector<double> peak_mib_;
};

}  // namespace senda::linalg
