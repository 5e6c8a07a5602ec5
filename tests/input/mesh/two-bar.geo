// The shallow von Mises truss of problems/von-mises.cfg as a Gmsh model: supports
// (-1, 0) and (1, 0), apex (0, 0.5), one 2-node line per bar. Written to
// two-bar.msh (ASCII) and two-bar-binary.msh by
//   gmsh -1 two-bar.geo -format msh41 -o two-bar.msh
//   gmsh -1 two-bar.geo -format msh41 -bin -o two-bar-binary.msh
Point(1) = {-1, 0, 0};
Point(2) = {0, 0.5, 0};
Point(3) = {1, 0, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Transfinite Curve {1, 2} = 2;  // two nodes per curve: one element per bar
Physical Point("base") = {1, 3};
Physical Point("apex") = {2};
Physical Curve("bars") = {1, 2};
