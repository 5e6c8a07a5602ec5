// A fixed-base portal frame, columns 4 high, girder 6 wide, as a Gmsh model whose
// curves are meshed at a parameter n of lines each (tests/input/defaults_test.cpp:
// one line per curve is a member of one element, said in a note; 4 lines are not).
// Written by
//   gmsh -1 portal.geo -setnumber n 1 -format msh41 -o portal-1.msh
//   gmsh -1 portal.geo -setnumber n 4 -format msh41 -o portal-4.msh
DefineConstant[ n = 1 ];
Point(1) = {0, 0, 0}; Point(2) = {0, 4, 0}; Point(3) = {6, 4, 0}; Point(4) = {6, 0, 0};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {4, 3};
Transfinite Curve {1:3} = n + 1;
Physical Curve("frame") = {1, 2, 3};
Physical Point("base") = {1, 4};
Physical Point("top") = {2};
