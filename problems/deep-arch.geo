// Deep circular arch of DaDeppo & Schmidt (1975) for problems/deep-arch.cfg:
// radius R = 1, opening angle 215 degrees, symmetric about the y axis, the apex at
// (0, R). Two arcs of 107.5 degrees, n = 20 two-node lines each (40 beam elements).
// Written by
//   gmsh -1 deep-arch.geo -format msh41 -o deep-arch.msh
// and, for the mesh convergence test (binary, 10 and 40 elements per half):
//   gmsh -1 deep-arch.geo -setnumber n 10 -format msh41 -bin -o ../tests/problems/mesh/deep-arch-20.msh
//   gmsh -1 deep-arch.geo -setnumber n 40 -format msh41 -bin -o ../tests/problems/mesh/deep-arch-80.msh
// and, for the reader's test of parametric coordinates (tests/input/mesh_test.cpp, n = 2):
//   gmsh -1 deep-arch.geo -setnumber n 2 -format msh41 -o ../tests/input/mesh/arch.msh
//   gmsh -1 deep-arch.geo -setnumber n 2 -format msh41 -bin -save_parametric -o ../tests/input/mesh/arch-parametric.msh
R = 1;
DefineConstant[ n = 20 ];  // elements per half of the arch
half = 107.5 * Pi / 180;
Point(1) = {0, 0, 0};                                    // centre (not meshed into the arch)
Point(2) = {R * Cos(Pi / 2 + half), R * Sin(Pi / 2 + half), 0};  // left end: hinged
Point(3) = {0, R, 0};                                    // apex: the load
Point(4) = {R * Cos(Pi / 2 - half), R * Sin(Pi / 2 - half), 0};  // right end: clamped
Circle(1) = {2, 1, 3};
Circle(2) = {3, 1, 4};
Transfinite Curve {1, 2} = n + 1;
Physical Point("hinged") = {2};
Physical Point("clamped") = {4};
Physical Point("apex") = {3};
Physical Curve("arch") = {1, 2};
