// Rank 0's MUMPS instances mirrored on the other ranks (senda/linalg/distributed.hpp).
//
// The protocol: before each collective dmumps_c call, rank 0 broadcasts a Command
// on MPI_COMM_WORLD: which instance (its address on rank 0), JOB, PAR and SYM (for
// JOB = −1) and every ICNTL and CNTL rank 0 set. The matrix, right-hand sides and
// solutions stay on rank 0 (centralized assembled input, ICNTL(18) = 0, and
// centralized dense right-hand side and solution, ICNTL(20) = ICNTL(21) = 0):
// MUMPS distributes the fronts itself inside the call and gathers the solution on
// the host. JOB = kQuit ends the workers, who then send their peak memory.
// MUMPS duplicates the communicator it is given, so its own messages never meet
// these broadcasts.
#include "senda/linalg/distributed.hpp"

#include <sys/resource.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>

#ifdef SENDA_HAVE_MUMPS
#include "mumps_call.hpp"
#endif
#ifdef SENDA_MPI
#include <mpi.h>

#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#endif

namespace senda::linalg {

namespace {
double own_peak_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux: kilobytes
}
}  // namespace

bool mpi_build() {
#ifdef SENDA_MPI
  return true;
#else
  return false;
#endif
}

int mpi_processes() {
#ifdef SENDA_MPI
  int initialized = 0, finalized = 0, size = 1;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
#else
  return 1;
#endif
}

#ifdef SENDA_MPI
namespace {
constexpr int kQuit = 1000;  // not a MUMPS JOB

struct Command {
  std::uint64_t key = 0;
  MUMPS_INT job = 0, par = 0, sym = 0;
  MUMPS_INT icntl[60] = {};
  double cntl[15] = {};
};

// Non-blocking on both sides: a blocking and a non-blocking broadcast never match
// (MPI 3.1, §5.12).
void broadcast(Command& c) {
  MPI_Request request;
  MPI_Ibcast(&c, sizeof c, MPI_BYTE, 0, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

// A worker waits for the next command without spinning (OpenMPI's blocking
// broadcast polls at full speed): on a machine with as many cores as ranks, an
// idle worker would otherwise take a core from rank 0's assembly and solves.
void receive(Command& c) {
  MPI_Request request;
  MPI_Ibcast(&c, sizeof c, MPI_BYTE, 0, MPI_COMM_WORLD, &request);
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

int world_rank_size(int& size) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    throw std::logic_error("MUMPS (SENDA_MPI build): MPI is not running; make a senda::linalg::MpiSession first");
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return rank;
}
}  // namespace
#endif

#ifdef SENDA_HAVE_MUMPS
namespace detail {
namespace {
// Every dmumps_c call of the process, one at a time. MUMPS keeps state of a call in
// Fortran module variables (its load module: DMUMPS_LOAD_INIT allocates `load_flops`,
// which the end of the factorization deallocates), and Debian's sequential build is
// not safe for two instances called from two threads: a --sweep with --jobs 2 and
// MUMPS (linalg.solver = mumps, or auto on a model of some 5 000 unknowns) crashed
// (SIGSEGV, "Attempt to DEALLOCATE unallocated 'load_flops'", MPI_ABORT with exit 0)
// or reported a value that completes alone as "diverged". The one lock that a library
// without shared state needs for a library that has it: the instances' own data stay
// apart, their calls are serialized (CHOLMOD's threads are not held by it).
std::mutex& mumps_lock() {
  static std::mutex m;
  return m;
}
}  // namespace

void mumps_call(DMUMPS_STRUC_C& id) {
  const std::lock_guard<std::mutex> hold(mumps_lock());
#ifdef SENDA_MPI
  int size = 1;
  if (world_rank_size(size) != 0)
    throw std::logic_error("MUMPS (SENDA_MPI build): only rank 0 makes factorizations; the others serve_workers()");
  if (size > 1) {
    Command c;
    c.key = reinterpret_cast<std::uintptr_t>(&id);
    c.job = id.job;
    c.par = id.par;
    c.sym = id.sym;
    std::memcpy(c.icntl, id.icntl, sizeof c.icntl);
    std::memcpy(c.cntl, id.cntl, sizeof c.cntl);
    broadcast(c);
  }
#endif
  dmumps_c(&id);
}

MUMPS_INT mumps_comm() {
#ifdef SENDA_MPI
  return static_cast<MUMPS_INT>(MPI_Comm_c2f(MPI_COMM_WORLD));
#else
  return -987654;  // USE_COMM_WORLD of the sequential library's dummy MPI
#endif
}
}  // namespace detail
#endif

MpiSession::MpiSession([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {
#ifdef SENDA_MPI
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    threads_ok_ = provided >= MPI_THREAD_MULTIPLE;
    initialized_here_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
#endif
}

MpiSession::~MpiSession() {
  finish();
#ifdef SENDA_MPI
  if (initialized_here_) MPI_Finalize();
#endif
}

std::vector<double> MpiSession::finish() {
  if (finished_) return peak_mib_;
  finished_ = true;
  double mine = own_peak_mib();
  peak_mib_.assign(static_cast<std::size_t>(size_), mine);
#ifdef SENDA_MPI
  if (size_ > 1) {
    if (rank_ == 0) {
      Command quit;
      quit.job = kQuit;
      broadcast(quit);
    }
    MPI_Gather(&mine, 1, MPI_DOUBLE, peak_mib_.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
#endif
  return peak_mib_;
}

void MpiSession::serve_workers() {
#ifdef SENDA_MPI
  if (rank_ == 0) throw std::logic_error("MpiSession::serve_workers on rank 0");
  std::unordered_map<std::uint64_t, std::unique_ptr<DMUMPS_STRUC_C>> instances;
  for (;;) {
    Command c;
    receive(c);
    if (c.job == kQuit) break;
    DMUMPS_STRUC_C* id = nullptr;
    if (c.job == -1) {
      auto& slot = instances[c.key];
      if (slot) throw std::runtime_error("MUMPS worker: instance created twice");
      slot = std::make_unique<DMUMPS_STRUC_C>();
      id = slot.get();
      id->par = c.par;
      id->sym = c.sym;
      id->comm_fortran = detail::mumps_comm();
    } else {
      const auto it = instances.find(c.key);
      if (it == instances.end()) throw std::runtime_error("MUMPS worker: JOB " + std::to_string(c.job) + " for an unknown instance");
      id = it->second.get();
      std::memcpy(id->icntl, c.icntl, sizeof c.icntl);
      std::memcpy(id->cntl, c.cntl, sizeof c.cntl);
    }
    id->job = c.job;
    dmumps_c(id);
    if (c.job == -2) instances.erase(c.key);
  }
  // Instances still open here belong to a rank 0 that ended without ending them:
  // their JOB = −2 would be collective, so MUMPS's memory is left to the exit.
#else
  throw std::logic_error("MpiSession::serve_workers: this build has no MPI (SENDA_MPI=OFF)");
#endif
}

void MpiSession::abort(int code) const {
#ifdef SENDA_MPI
  MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::_Exit(code);
}

}  // namespace senda::linalg
