#pragma once
// The one place a MUMPS instance is called (factorization.cpp's MumpsState).
// Sequential build: dmumps_c itself. SENDA_MPI build: rank 0 first tells the
// workers of distributed.cpp to make the same call on their mirror of the
// instance (senda/linalg/distributed.hpp).
#include <dmumps_c.h>

namespace senda::linalg::detail {

// dmumps_c(&id), mirrored on ranks 1 … P−1 when there are any. The instance is
// named by its address on rank 0 (alive from its JOB = −1 to its JOB = −2).
// Throws std::logic_error in a SENDA_MPI build without an MpiSession, or on a
// rank other than 0.
void mumps_call(DMUMPS_STRUC_C& id);

// The communicator of a new instance: MPI_COMM_WORLD's Fortran handle, or
// MUMPS's "use comm world" value of the sequential library.
MUMPS_INT mumps_comm();

}  // namespace senda::linalg::detail
